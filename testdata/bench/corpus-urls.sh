#!/bin/sh
# corpus-urls.sh [BASE]: the URLs of every corpus page, for serve-bench.mjs
# and peers.mjs. BASE is where ../shared/corpus is served.
base=${1:-http://127.0.0.1:8000}
corpus=${CORPUS:-$(dirname "$0")/../../../shared/corpus}
cd "$corpus" || exit 1
for a in todomvc/*/; do
  if [ -f "$a/index.html" ]; then echo "$base/${a}index.html"; elif [ -f "$a/browser/index.html" ]; then echo "$base/${a}browser/index.html"; fi
done
for f in readability/*/source.html synthetic/*.html aria-practices/content/patterns/*/examples/*.html; do
  echo "$base/$f"
done
