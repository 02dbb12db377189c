// Package recordings reads the captures recorded from real Chromium
// (testdata/captures). The tests of dom's stage packages build, flatten
// and scan them without a browser.
package recordings

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"domscope/dom"
)

// Dir holds the recordings: the repository's testdata/captures, wherever
// the test runs from. $DOMSCOPE_RECORD_DIR records elsewhere, to compare
// before committing.
var Dir = func() string {
	if d := os.Getenv("DOMSCOPE_RECORD_DIR"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "captures")
}()

// Load reads the recording <name>.json, or <name>.json.gz.
func Load(t testing.TB, name string) *dom.RawCapture {
	t.Helper()
	path := filepath.Join(Dir, name+".json")
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		zb, zerr := os.ReadFile(path + ".gz")
		if zerr != nil {
			t.Fatalf("no recording %s(.gz): %v", path, zerr)
		}
		zr, zerr := gzip.NewReader(bytes.NewReader(zb))
		if zerr != nil {
			t.Fatal(zerr)
		}
		var out bytes.Buffer
		if _, zerr := out.ReadFrom(zr); zerr != nil {
			t.Fatal(zerr)
		}
		b, err = out.Bytes(), nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var raw dom.RawCapture
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &raw
}

// All are the recorded captures (testdata/captures) by name.
func All(t testing.TB) map[string]*dom.RawCapture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir, "*.json*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded captures: %v", err)
	}
	out := map[string]*dom.RawCapture{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		var raw dom.RawCapture
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = &raw
	}
	return out
}

// Layouts are the DOMSnapshot replies of every recorded capture,
// one per target, by capture name.
func Layouts(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, raw := range All(t) {
		for i, tg := range raw.Targets {
			if len(tg.Layout) > 0 {
				out[name+"#"+string(rune('0'+i))] = tg.Layout
			}
		}
	}
	return out
}
