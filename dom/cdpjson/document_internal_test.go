package cdpjson

import (
	"reflect"
	"strings"
	"testing"

	"domscope/dom/internal/recordings"
)

// recordedDocuments are the DOM.getDocument replies and deep-document
// parts of every recorded capture, by capture, target and part.
func recordedDocuments(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, raw := range recordings.All(t) {
		for i, tg := range raw.Targets {
			key := name + "#" + string(rune('0'+i))
			out[key] = tg.Document
			for j, p := range tg.DocumentParts {
				out[key+"/part"+strings.Repeat("i", j%8)] = p
			}
		}
	}
	return out
}

// nilEmpty makes the empty lists of a decoded tree nil, as ParseDocument
// leaves them. It drops the counts ParseDocument does not read. Then the
// two can be compared.
func nilEmpty(n *Node) {
	if n == nil {
		return
	}
	n.Each(func(x *Node) {
		x.ChildNodeCount = 0
		if len(x.Children) == 0 {
			x.Children = nil
		}
		if len(x.ShadowRoots) == 0 {
			x.ShadowRoots = nil
		}
		if len(x.Attributes) == 0 {
			x.Attributes = nil
		}
	})
}

// ParseDocument reads what a decoder reads from every recorded document.
func TestParseDocumentMatchesDecoder(t *testing.T) {
	for name, data := range recordedDocuments(t) {
		got, err := ParseDocument(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var doc struct {
			Root     *Node   `json:"root"`
			ParentID int64   `json:"parentId"`
			Nodes    []*Node `json:"nodes"`
		}
		if err := Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := doc.Root
		if want == nil {
			// a part ({"parentId", "nodes"}) reads as a node with neither
			want = &Node{}
		}
		nilEmpty(want)
		nilEmpty(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parseDocument differs from the decoder", name)
		}
	}
}

// A document nested past every decoder's limit parses, and bad input is
// an error, never a panic.
func TestParseDocumentDeepAndBad(t *testing.T) {
	const depth = 30000
	doc := `{"root":` + strings.Repeat(`{"nodeType":1,"localName":"div","children":[`, depth) +
		`{"nodeType":3,"nodeValue":"deep"}` + strings.Repeat(`]}`, depth) + `}`
	n, err := ParseDocument([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	levels := 0
	for ; len(n.Children) == 1; n = n.Children[0] {
		levels++
	}
	if levels != depth || n.NodeValue != "deep" {
		t.Errorf("%d levels, leaf %q", levels, n.NodeValue)
	}
	for _, bad := range []string{`[1]`, `{"root":{"children":[{}`, `{"root" {}}`, `{"a":1,}`, `{"nodeId":[1]}`, `{"x":"\`} {
		if _, err := ParseDocument([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if n, err := ParseDocument([]byte(" null ")); n != nil || err != nil {
		t.Errorf("null: %v %v", n, err)
	}
	// strings as the decoder reads them: escapes undone, a broken one empty
	n, err = ParseDocument([]byte(`{"nodeName":"a\u00e9\ud83d\ude00","nodeValue":"x\ud800","attributes":["n","v\"",1,"w"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if n.NodeName != "aé😀" || n.NodeValue != "" || !reflect.DeepEqual(n.Attributes, []string{"n", `v"`, "w"}) {
		t.Errorf("strings: %+v", n)
	}
}
