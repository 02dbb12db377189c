package flatten_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// update rewrites the golden files of the engine: go test ./dom -update
var update = flag.Bool("update", false, "rewrite testdata/golden/dom from the current output")

var goldenDir = filepath.Join("..", "..", "testdata", "golden", "dom")

// goldenRecordings are the recordings whose outputs are kept as golden
// files (the big synthetic ones only as text: their trees run to MBs).
var goldenRecordings = map[string][]string{
	"semantic":       {"json", "txt", "tree"},
	"nonsemantic":    {"json", "txt", "tree"},
	"hidden":         {"json", "txt", "tree"},
	"shadow":         {"json", "txt", "tree"},
	"frames":         {"json", "txt", "tree"},
	"privacy":        {"json", "txt", "tree"},
	"hostile":        {"json", "txt", "tree"},
	"deep":           {"json", "txt"},
	"synthetic-1000": {"json", "txt", "tree"},
	"synthetic-5000": {"txt"},
}

// TestGolden builds and flattens each recording and compares the json,
// text and tree outputs with testdata/golden/dom.
func TestGolden(t *testing.T) {
	for name, kinds := range goldenRecordings {
		t.Run(name, func(t *testing.T) {
			raw := recordings.Load(t, name)
			s, err := build.Build(raw, build.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sd, d := flatten.Flatten(s, dom.DefaultOptions())
			if d.Len() != len(s.ByID) {
				t.Errorf("%d decisions for %d nodes", d.Len(), len(s.ByID))
			}
			for _, kind := range kinds {
				var got []byte
				switch kind {
				case "json":
					j, err := flatten.FormatJSON(sd)
					if err != nil {
						t.Fatal(err)
					}
					var b bytes.Buffer
					if err := json.Indent(&b, j, "", " "); err != nil {
						t.Fatal(err)
					}
					got = append(b.Bytes(), '\n')
				case "txt":
					got = []byte(flatten.FormatText(sd))
				case "tree":
					got = []byte(flatten.FormatTree(s, d))
				}
				compareGolden(t, name+"."+kind, got)
			}
		})
	}
}

func compareGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, file)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./dom -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s differs from line %d:\n got: %s\nwant: %s\n(go test ./dom -run TestGolden -update rewrites it)", file, i+1, g, w)
				return
			}
		}
	}
}
