package screenshot

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/cdpjson"
	"domscope/dom/internal/recordings"
)

// TestScanFindsTheSensitiveFields: on every recorded capture, the
// DOMSnapshot scan finds the sensitive fields with a box. It finds exactly
// those Build finds; the same function decides. In a target's top
// document each found box holds the field's own box.
func TestScanFindsTheSensitiveFields(t *testing.T) {
	found := 0
	for name, layout := range recordings.Layouts(t) {
		if name[len(name)-1] != '0' {
			continue // the page's target; frames are built under it
		}
		raw := recordedCapture(t, name)
		snap, err := build.Build(raw, build.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := map[fieldKey]*dom.VirtualNode{}
		dom.Walk(snap.Root, func(n *dom.VirtualNode) {
			if n.Sensitive() && n.TargetID == raw.Targets[0].TargetID && (n.Bounds.W > 0 || n.Bounds.H > 0) {
				want[fieldKey{n.TargetID, n.BackendID}] = n
			}
		})
		s, err := cdpjson.DecodeNodeLayout(layout)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st := &scanTarget{id: raw.Targets[0].TargetID, snap: s}
		st.find(nil)
		got := map[fieldKey]dom.Rect{}
		for d, fs := range st.fields {
			for k, r := range fs {
				got[k] = r
				if d == 0 && want[k] != nil && !contains(r, want[k].Bounds) {
					t.Errorf("%s: %s: scanned box %v does not hold its box %v", name, want[k].ID, r, want[k].Bounds)
				}
			}
		}
		for k, n := range want {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: the scan misses %s (%s %v)", name, n.ID, n.Tag, n.Attrs)
			}
		}
		for k := range got {
			if want[k] == nil {
				t.Errorf("%s: the scan finds backend node %d, which Build does not call sensitive", name, k.id)
			}
		}
		found += len(got)
		t.Logf("%s: %d fields", name, len(got))
	}
	if found == 0 {
		t.Fatal("no recorded capture has a sensitive field: the test checks nothing")
	}
}

func contains(outer, inner dom.Rect) bool {
	return inner.X >= outer.X && inner.Y >= outer.Y && inner.X+inner.W <= outer.X+outer.W && inner.Y+inner.H <= outer.Y+outer.H
}

// recordedCapture reads the recorded capture a name of recordings.Layouts
// comes from.
func recordedCapture(t *testing.T, name string) *dom.RawCapture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captures", name[:len(name)-2]))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name[:len(name)-2], ".gz") {
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
		t.Fatal(err)
	}
	return &raw
}

// noSession answers nothing: a target whose boxes cannot be asked for.
type noSession struct{}

func (noSession) Call(context.Context, string, any, any) error { return errors.New("no session") }
func (noSession) Subscribe(string) (<-chan json.RawMessage, func()) {
	return nil, func() {}
}

// FuzzScanSnapshot: any DOMSnapshot reply gives fields or an error.
// Placing or covering any of its documents never panics.
func FuzzScanSnapshot(f *testing.F) {
	f.Add([]byte(`{"strings":["INPUT","type","password","IFRAME"],"documents":[{"nodes":{"parentIndex":[-1,0,0],"nodeType":[9,1,1],"nodeName":[-1,0,3],"backendNodeId":[1,2,3],"attributes":[[],[1,2],[]],"contentDocumentIndex":{"index":[2],"value":[1]}},"layout":{"nodeIndex":[1,2],"bounds":[[1,2,3,4],[5,6,7,8]]}},{"nodes":{"parentIndex":[-1,0],"nodeType":[9,1],"nodeName":[-1,0],"backendNodeId":[4,5],"attributes":[[],[1,2]],"contentDocumentIndex":{"index":[1],"value":[0]}},"layout":{"nodeIndex":[1],"bounds":[[0,0,1,1]]}}]}`))
	f.Add([]byte(`{"documents":[{"nodes":{"parentIndex":[5,-9],"nodeType":[1,1],"nodeName":[99],"attributes":[[7,-1,3]]},"layout":{"nodeIndex":[-1,7,0],"bounds":[[],[1]]}}]}`))
	f.Add([]byte(`[[[[{"":"\\`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := cdpjson.DecodeNodeLayout(data)
		if err != nil {
			return
		}
		st := &scanTarget{id: "t", sess: noSession{}, snap: s}
		known := &SensitiveNodes{m: map[fieldKey]bool{{"t", 2}: true}}
		st.find(known)
		out := secretBoxes{}
		for d := range s.Docs {
			st.docShift(context.Background(), d)
			st.coverDoc(context.Background(), d, out)
		}
		st.layoutOf(2)
	})
}

// TestScreenshotWithoutPage: no page is an error, not a panic.
func TestScreenshotWithoutPage(t *testing.T) {
	var e *dom.Error
	if _, err := Screenshot(context.Background(), nil, nil); !errors.As(err, &e) || e.Code != dom.NotAttached {
		t.Fatalf("Screenshot(nil): %v", err)
	}
}
