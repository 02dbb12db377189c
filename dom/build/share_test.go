package build_test

import (
	"maps"
	"reflect"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
)

// TestRebuildSharesUnchangedAttrs: a build with a previous snapshot
// shares the attribute and state maps of each node whose attributes or
// states did not change.
// It builds what a build without it builds. The previous tree stays as
// it was, even when the build scrubs a secret from a shared map.
func TestRebuildSharesUnchangedAttrs(t *testing.T) {
	mk := func(secret, label string) *fixture.Node {
		field := []string{"type", "password", "id", "pw"}
		if secret != "" {
			field = append(field, "value", secret) // a capture not scrubbed
		}
		// The card becomes a sensitive field: its input, unchanged, is
		// now inside one and loses its value.
		// A field that shows the secret: its value state is scrubbed.
		echo := fixture.El("input", []string{"id", "echo"}).AX("textbox", "echo")
		echo.Value = "hunter2"
		card := []string{"id", "card", "autocomplete", "off"}
		if secret != "" {
			card[3] = "cc-number"
		}
		return fixture.Page(
			fixture.El("div", []string{"id", "same", "class", "a b"}, fixture.Txt("x")),
			fixture.El("div", []string{"id", "tip", "title", "hunter2"}, fixture.Txt("y")),
			fixture.El("div", []string{"id", "label", "title", label}, fixture.Txt("z")),
			fixture.El("input", field).AX("textbox", ""),
			fixture.El("div", card, fixture.El("input", []string{"id", "num", "value", "4111"})),
			echo,
			fixture.El("input", []string{"id", "cb", "type", "checkbox", "checked", ""}),
		)
	}
	first := fixture.MustBuild(t, mk("", "one"), build.Options{})
	before, beforeStates := attrsByID(first), statesByID(first)
	second := fixture.MustBuild(t, mk("hunter2", "two"), build.Options{Prev: first})
	alone := fixture.MustBuild(t, mk("hunter2", "two"), build.Options{})

	if got := attrsByID(first); !reflect.DeepEqual(got, before) {
		t.Errorf("the previous tree changed:\n got %v\nwant %v", got, before)
	}
	if got := statesByID(first); !reflect.DeepEqual(got, beforeStates) {
		t.Errorf("the previous tree's states changed:\n got %v\nwant %v", got, beforeStates)
	}
	if v := fixture.Find(second, fixture.ByAttr("id", "echo")).States["value"]; v == "hunter2" {
		t.Errorf("the secret was not scrubbed from the new tree's value state")
	}
	same := func(s *dom.Snapshot) *dom.VirtualNode { return fixture.Find(s, fixture.ByAttr("id", "same")) }
	if reflect.ValueOf(same(first).Attrs).UnsafePointer() != reflect.ValueOf(same(second).Attrs).UnsafePointer() {
		t.Errorf("an unchanged node's attributes were not shared")
	}
	box := func(s *dom.Snapshot) *dom.VirtualNode { return fixture.Find(s, fixture.ByAttr("id", "cb")) }
	if len(box(first).States) == 0 || reflect.ValueOf(box(first).States).UnsafePointer() != reflect.ValueOf(box(second).States).UnsafePointer() {
		t.Errorf("an unchanged node's states were not shared: %v, %v", box(first).States, box(second).States)
	}
	if v := fixture.Find(second, fixture.ByAttr("id", "tip")).Attrs["title"]; v == "hunter2" {
		t.Errorf("the secret was not scrubbed from the new tree's title")
	}
	if _, ok := fixture.Find(second, fixture.ByAttr("id", "num")).Attrs["value"]; ok {
		t.Errorf("an input inside a sensitive field kept its value")
	}
	if v := fixture.Find(second, fixture.ByAttr("id", "label")).Attrs["title"]; v != "two" {
		t.Errorf("a changed attribute reads %q, want two", v)
	}
	// Apart from IDs, the same tree as a build from nothing.
	a, b := preorder(second), preorder(alone)
	if len(a) != len(b) {
		t.Fatalf("%d nodes, a build alone has %d", len(a), len(b))
	}
	for i := range a {
		x, y := *a[i], *b[i]
		x.ID, y.ID, x.Parent, y.Parent, x.Children, y.Children = "", "", nil, nil, nil, nil
		if !reflect.DeepEqual(x, y) {
			t.Errorf("node %d: %+v\nalone: %+v", i, x, y)
		}
	}
}

// statesByID copies each node's states.
func statesByID(s *dom.Snapshot) map[string]map[string]string {
	out := map[string]map[string]string{}
	for id, n := range s.ByID {
		out[id] = maps.Clone(n.States)
	}
	return out
}

// attrsByID copies each node's attributes.
func attrsByID(s *dom.Snapshot) map[string]map[string]string {
	out := map[string]map[string]string{}
	for id, n := range s.ByID {
		out[id] = maps.Clone(n.Attrs)
	}
	return out
}

func preorder(s *dom.Snapshot) []*dom.VirtualNode {
	var out []*dom.VirtualNode
	dom.Walk(s.Root, func(n *dom.VirtualNode) { out = append(out, n) })
	return out
}
