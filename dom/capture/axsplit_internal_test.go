package capture

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// recordedAXTrees reads every AX tree of the recorded captures, as
// Chrome sent them.
func recordedAXTrees(t *testing.T) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "captures", "*.json*"))
	if len(files) == 0 {
		t.Fatal("no recorded captures")
	}
	out := map[string][]byte{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = fh
		if strings.HasSuffix(f, ".gz") {
			if r, err = gzip.NewReader(fh); err != nil {
				t.Fatal(err)
			}
		}
		var raw dom.RawCapture
		err = json.NewDecoder(r).Decode(&raw)
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tg := range raw.Targets {
			for i, ax := range tg.AXTrees {
				if len(ax) > 0 {
					out[filepath.Base(f)+"/"+tg.TargetID+"/"+string(rune('0'+i))] = ax
				}
			}
		}
	}
	return out
}

// TestDecodeAXInPieces: an AX tree decoded in pieces side by side gives
// what one decoding gives, however many pieces. A reply of another
// shape is decoded whole.
func TestDecodeAXInPieces(t *testing.T) {
	split := 0
	for name, ax := range recordedAXTrees(t) {
		whole := map[int64]*cdpjson.AXNode{}
		if err := cdpjson.DecodeAXTree(ax, whole); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, n := range []int{2, 3, 7} {
			pieces := splitAX(ax, n, 0)
			if len(pieces) > 1 {
				split++
			}
			if got := decodeAXPieces(ax, pieces); !reflect.DeepEqual(got, whole) {
				t.Errorf("%s in %d pieces (%d cut): %d nodes, want %d, or they differ", name, n, len(pieces), len(got), len(whole))
			}
		}
		if got := decodeAX(ax); !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: decodeAX differs from one decoding", name)
		}
	}
	if split == 0 {
		t.Fatal("no recorded AX tree was cut: the cut marker is never found")
	}
	for _, odd := range []string{
		`{"nodes": [{"nodeId":"1","backendDOMNodeId":5},{"nodeId":"2","backendDOMNodeId":6}]}`,
		`{"nodes":[{"nodeId":"1","backendDOMNodeId":5}]}`,
		`{"nodes":[{"backendDOMNodeId":5,"nodeId":"1"},{"backendDOMNodeId":6,"nodeId":"2"}]} `,
		`{"nodes":[{"nodeId":"1","name":{"value":"},{\"nodeId\":\""}},{"nodeId":"2"}]}`,
	} {
		if p := splitAX([]byte(odd), 2, 0); p != nil && !strings.Contains(odd, `"name"`) {
			t.Errorf("%s: cut into %q, want it whole", odd, p)
		}
		whole := map[int64]*cdpjson.AXNode{}
		_ = cdpjson.DecodeAXTree([]byte(odd), whole)
		if got := decodeAXPieces([]byte(odd), splitAX([]byte(odd), 2, 0)); !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: pieces give %v, whole %v", odd, got, whole)
		}
	}
}
