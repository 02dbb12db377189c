#!/bin/bash
# runab.sh ROUNDS SCRIPT BIN...: the steps of a `run` script on
# synthetic-50000, binaries alternating; prints each step's "duration" in
# ms and the run's peak RSS (with Chromium) and CPU.
R=$1; SC=$2; shift 2
URL=${URL:-http://127.0.0.1:8000/synthetic/synthetic-50000.html}
for r in $(seq 1 "$R"); do for b in "$@"; do
  out=$(/usr/bin/time -f '%M KB %U+%S s' "$b" run --launch --url "$URL" "$SC" 2>/tmp/runab.err)
  d=$(echo "$out" | grep -o '"duration":[0-9.]*' | cut -d: -f2 | xargs printf '%.0f ')
  echo "r$r $(basename "$b") $(basename "$SC"): $d| $(tail -1 /tmp/runab.err)"
done; done
