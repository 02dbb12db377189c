package capture_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/internal/recordings"
)

// record makes TestRecord capture the fixture pages from real Chromium into
// testdata/captures: go test ./dom -run TestRecord -record
var record = flag.Bool("record", false, "record captures of testdata/pages and the synthetic corpus into testdata/captures")

// gzipOver is the size above which a recording is stored gzipped.
const gzipOver = 1 << 20

// pages lists what TestRecord captures: name -> page path. "{other}" is
// the second origin. frame-inner.html is only a frame of frames.html.
var pages = map[string]string{
	"semantic":      "semantic.html",
	"nonsemantic":   "nonsemantic.html",
	"hidden":        "hidden.html",
	"shadow":        "shadow.html",
	"frames":        "frames.html?other={other}",
	"frames-nested": "frames-nested.html?other={other}",
	"privacy":       "privacy.html",
	"hostile":       "hostile.html",
	"deep":          "deep.html",
}

// demoRecordings are pages of the demo built into the binary (dom/demo).
// They map name -> path and how many out-of-process frames to wait for.
// The UI's goldens show them.
var demoRecordings = map[string]struct {
	path   string
	frames int
}{
	"demo-index":      {"index.html", 0},
	"demo-todo":       {"todo.html", 0},
	"demo-components": {"components.html", 1},
}

// syntheticRecordings are pages of the shared corpus. 50000 is too big
// for the repository. The benchmarks capture it at run time instead.
var syntheticRecordings = []string{"synthetic-1000", "synthetic-5000", "synthetic-10000"}

func TestRecord(t *testing.T) {
	if !*record {
		t.Skip("recording only with -record")
	}
	if err := os.MkdirAll(recordings.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, path := range pages {
		t.Run(name, func(t *testing.T) {
			p, _, _ := capOpen(t, path)
			if strings.Contains(path, "{other}") {
				capWaitFrames(t, p, strings.Count(path, "nested")+1)
			}
			writeRecording(t, name, capRaw(t, p))
		})
	}
	for name, d := range demoRecordings {
		t.Run(name, func(t *testing.T) {
			base, stop, err := demo.Serve()
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			p := cdptest.Page(t, base+"/"+d.path)
			if d.frames > 0 {
				capWaitFrames(t, p, d.frames)
			}
			writeRecording(t, name, capRaw(t, p))
		})
	}
	for _, name := range syntheticRecordings {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(cdptest.Shared(t), "corpus", "synthetic")
			u, _ := cdptest.Serve(t, dir)
			p := cdptest.Page(t, u+"/"+name+".html")
			writeRecording(t, name, capRaw(t, p))
		})
	}
}

// writeRecording saves raw as <name>.json, or <name>.json.gz when big.
// It removes the other form, so only one recording of a page exists.
func writeRecording(t *testing.T, name string, raw *dom.RawCapture) {
	t.Helper()
	raw.Timings = nil // timings differ on every run; keep recordings diffable
	raw.Timestamp = "2026-01-01T00:00:00Z"
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	b = stabilize(b, raw)
	if len(b) < 256<<10 {
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", " "); err == nil {
			b = out.Bytes()
		}
	}
	plain := filepath.Join(recordings.Dir, name+".json")
	zipped := plain + ".gz"
	if len(b) > gzipOver {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		err = os.WriteFile(zipped, z.Bytes(), 0o644)
		os.Remove(plain)
	} else {
		err = os.WriteFile(plain, append(b, '\n'), 0o644)
		os.Remove(zipped)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d targets, %d bytes", name, len(raw.Targets), len(b))
}

// stabilize makes a recording the same from run to run. So re-recording
// an unchanged page changes no golden file. The random ports of the test
// servers become 8001, 8002, ..., in order of first appearance. The
// random target and frame ids become TARGET0001..., FRAME0001....
func stabilize(b []byte, raw *dom.RawCapture) []byte {
	ports := map[string]string{}
	b = portRE.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := portRE.FindSubmatch(m)
		port := string(m[len(sub[1])+len(sub[2]):])
		if ports[port] == "" {
			ports[port] = fmt.Sprint(8001 + len(ports))
		}
		return []byte(string(sub[1]) + string(sub[2]) + ports[port])
	})
	var ids []string
	add := func(id string) {
		if len(id) >= 16 && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	add(raw.TargetID)
	for _, t := range raw.Targets {
		add(t.TargetID)
		add(t.FrameID)
		for _, f := range t.Frames {
			add(f.FrameID)
		}
	}
	for i, id := range ids {
		kind := "FRAME"
		for _, t := range raw.Targets {
			if t.TargetID == id {
				kind = "TARGET"
			}
		}
		// Same length as Chrome's ids, so nothing else shifts.
		repl := fmt.Sprintf("%s%0*d", kind, len(id)-len(kind), i+1)
		b = bytes.ReplaceAll(b, []byte(id), []byte(repl))
	}
	return b
}

var portRE = regexp.MustCompile(`(127\.0\.0\.1|localhost)(:|%3A)[0-9]{2,5}`)

// TestRecordingsArePrivate checks the committed recordings. No secret of
// the fixture pages is in any of them. Each has the page target.
func TestRecordingsArePrivate(t *testing.T) {
	secrets := []string{"correct-horse-battery", "typed-secret-pw-991", "attr-secret-pw-123", "typed-secret-pw-456", "4111111111111111", "frame-secret-pw"}
	for name := range pages {
		if _, err := os.Stat(filepath.Join(recordings.Dir, name+".json")); err != nil {
			if _, err := os.Stat(filepath.Join(recordings.Dir, name+".json.gz")); err != nil {
				t.Errorf("recording %s is missing: run go test ./dom -run TestRecord -record", name)
				continue
			}
		}
		raw := recordings.Load(t, name)
		if len(raw.Targets) == 0 || raw.Targets[0].TargetID != raw.TargetID {
			t.Errorf("%s: no page target", name)
		}
		b, _ := json.Marshal(raw)
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s: secret %q recorded", name, s)
			}
		}
	}
}
