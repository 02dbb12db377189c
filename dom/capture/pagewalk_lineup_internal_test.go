package capture

import (
	"strings"
	"testing"

	"domscope/dom/cdpjson"
)

// lineUpDoc is a document: html > (head, body > (div > "hi", p)).
func lineUpDoc(t *testing.T) *cdpjson.Node {
	t.Helper()
	doc, err := cdpjson.ParseDocument([]byte(`{"root":{"nodeType":9,"backendNodeId":1,"children":[
		{"nodeType":1,"localName":"html","backendNodeId":2,"children":[
			{"nodeType":1,"localName":"head","backendNodeId":3},
			{"nodeType":1,"localName":"body","backendNodeId":4,"children":[
				{"nodeType":1,"localName":"div","backendNodeId":5,"children":[{"nodeType":3,"backendNodeId":6,"nodeValue":"hi"}]},
				{"nodeType":1,"localName":"p","backendNodeId":7}]}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestLineUp: rows that match give AX nodes by backend id. A row whose
// tag or child count is off leaves its nodes without one, and counts
// them. Bad answers are errors.
func TestLineUp(t *testing.T) {
	doc := lineUpDoc(t)
	good := `[[9,"",1,"RootWebArea","T","",false,{}],[1,"html",2,"none",null,"",true,{}],[1,"head",0],
		[1,"body",2,"none",null,"",true,{}],[1,"div",1,"button","hi","",false,{"pressed":"true"}],[3,"",0],[1,"p",0,"paragraph","","",false,{}]]`
	rows, err := decodeRows([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	out, unmatched, err := lineUp(doc, rows)
	if err != nil || unmatched != 0 {
		t.Fatalf("lineUp: %v, %d unmatched", err, unmatched)
	}
	m := map[int64]*cdpjson.AXNode{}
	if err := cdpjson.DecodeAXTree(out, m); err != nil {
		t.Fatal(err)
	}
	if n := m[5]; n == nil || n.Role != "button" || n.Name != "hi" || len(n.Properties) != 1 || n.Properties[0].Value != "true" {
		t.Errorf("div's AX node: %+v", n)
	}
	if m[3] != nil || m[6] != nil || m[2] == nil || !m[2].Ignored {
		t.Errorf("head %v text %v html %v: want none, none, ignored", m[3], m[6], m[2])
	}

	// The body's row says one child: its subtree is left out.
	off := strings.Replace(good, `[1,"body",2,`, `[1,"body",1,`, 1)
	off = strings.Replace(off, `,[1,"p",0,"paragraph","","",false,{}]`, ``, 1)
	rows, err = decodeRows([]byte(off))
	if err != nil {
		t.Fatal(err)
	}
	if _, unmatched, err = lineUp(doc, rows); err != nil || unmatched != 3 {
		t.Errorf("child count off: %v, %d unmatched, want 3", err, unmatched)
	}
	for _, bad := range []string{``, `[`, `{}`, `[[1]]`, `[[1,"a","x"]]`, `[[9,"",1]]`, `[[9,"",0],[1,"a",0]]`, `[[9,"",0,"r",5,"",false,{}]]`} {
		rows, err := decodeRows([]byte(bad))
		if err == nil {
			_, _, err = lineUp(doc, rows)
		}
		if err == nil {
			t.Errorf("answer %q: no error", bad)
		}
	}
}
