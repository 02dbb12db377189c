package dom_test

import (
	"testing"

	"domscope/dom"
)

// LabelControl finds a label's control by for and by nesting; a label of
// a password field is sensitive, so what is typed on it is masked.
func TestLabelControl(t *testing.T) {
	s, err := dom.Build(loadRecording(t, "demo-signin"), dom.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var labels []*dom.VirtualNode
	dom.Walk(s.Root, func(n *dom.VirtualNode) {
		if n.Tag == "label" {
			labels = append(labels, n)
		}
	})
	want := []struct {
		control   string // the control's id attribute or type
		sensitive bool
	}{{"email", false}, {"password", true}, {"checkbox", false}}
	if len(labels) != len(want) {
		t.Fatalf("%d labels, want %d", len(labels), len(want))
	}
	for i, l := range labels {
		c := dom.LabelControl(l)
		if c == nil || (c.Attrs["id"] != want[i].control && c.Attrs["type"] != want[i].control) {
			t.Errorf("label %d: control %v, want %s", i, c, want[i].control)
		}
		if l.Sensitive() != want[i].sensitive {
			t.Errorf("label %d (of %s): Sensitive() = %v", i, want[i].control, l.Sensitive())
		}
	}
	if dom.LabelControl(labels[1].Children[0]) != nil {
		t.Error("a label's text has a control")
	}
}
