package dom_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/recordings"
)

// LabelControl finds a label's control by for and by nesting. What is
// typed on a label of a password field is secret (TakesSecret). The label
// itself is no sensitive field.
func TestLabelControl(t *testing.T) {
	s, err := build.Build(recordings.Load(t, "demo-signin"), build.Options{})
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
		if l.TakesSecret() != want[i].sensitive {
			t.Errorf("label %d (of %s): TakesSecret() = %v", i, want[i].control, l.TakesSecret())
		}
		if l.Sensitive() {
			t.Errorf("label %d (of %s) is a sensitive field itself (its box would be painted over)", i, want[i].control)
		}
	}
	if dom.LabelControl(labels[1].Children[0]) != nil {
		t.Error("a label's text has a control")
	}
}
