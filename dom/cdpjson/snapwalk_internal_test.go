package cdpjson

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/dom/internal/recordings"
)

// DecodeNodeLayout, on the shared walk, reads what encoding/json reads
// from every recorded layout. A reply with no document is an error.
func TestDecodeNodeLayoutMatchesEncodingJSON(t *testing.T) {
	for name, data := range recordings.Layouts(t) {
		got, err := DecodeNodeLayout(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var reply struct {
			Strings   []string
			Documents []struct {
				ScrollOffsetX, ScrollOffsetY float64
				Nodes                        struct {
					ParentIndex, NodeType, NodeName, BackendNodeID []int
					Attributes                                     [][]int
					ContentDocumentIndex                           RareInts
				}
				Layout struct {
					NodeIndex []int
					Bounds    [][]float64
				}
			}
		}
		if err := json.Unmarshal(data, &reply); err != nil {
			t.Fatalf("%s: encoding/json: %v", name, err)
		}
		want := &NodeLayout{Strings: reply.Strings}
		for _, d := range reply.Documents {
			want.Docs = append(want.Docs, NodeLayoutDoc{ScrollX: d.ScrollOffsetX, ScrollY: d.ScrollOffsetY,
				Parent: d.Nodes.ParentIndex, NodeType: d.Nodes.NodeType, NodeName: d.Nodes.NodeName,
				Backend: d.Nodes.BackendNodeID, Attrs: d.Nodes.Attributes, Content: d.Nodes.ContentDocumentIndex,
				LayoutNode: d.Layout.NodeIndex, Bounds: d.Layout.Bounds})
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if gs, ws := strings.ReplaceAll(string(g), "null", "[]"), strings.ReplaceAll(string(w), "null", "[]"); gs != ws {
			t.Errorf("%s: DecodeNodeLayout and encoding/json differ", name)
		}
	}
	for _, bad := range []string{`{"strings":[]}`, `{"documents":[]}`, `{"documents":[{"nodes":{"parentIndex":[1,}}]}`, `[]`} {
		if _, err := DecodeNodeLayout([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
