package build_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/cdpjson"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	"domscope/dom/internal/recordings"
)

// treeDump writes every field of every node a build sets, with its
// parent and children by ID, in preorder.
func treeDump(s *dom.Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q %s next=%d frames=%v\n", s.URL, s.Title, s.TargetID, s.NextID, s.Frames)
	dom.Walk(s.Root, func(n *dom.VirtualNode) {
		p := ""
		if n.Parent != nil {
			p = n.Parent.ID
		}
		var kids []string
		for _, c := range n.Children {
			kids = append(kids, c.ID)
		}
		m := *n
		m.Parent, m.Children = nil, nil
		fmt.Fprintf(&b, "%+v parent=%s kids=%v\n", m, p, kids)
		if s.ByID[n.ID] != n {
			fmt.Fprintf(&b, "  ByID[%s] is another node\n", n.ID)
		}
	})
	fmt.Fprintf(&b, "ByID %d\n", len(s.ByID))
	return b.String()
}

// draft10k is the recorded synthetic-10000 page, decoded, and a draft
// built from it.
func draft10k(t *testing.T) (*cdpjson.Capture, *build.Draft) {
	t.Helper()
	c, err := cdpjson.Decode(recordings.Load(t, "synthetic-10000"), false)
	if err != nil {
		t.Fatal(err)
	}
	d, err := build.NewDraft(c, build.Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return c, d
}

// TestCloneIsARebuild: a draft's copy is the tree a new build of the
// same capture makes with the draft's snapshot as Prev, field by field.
// It is a copy: putting it right leaves the first tree as it was.
func TestCloneIsARebuild(t *testing.T) {
	c, d := draft10k(t)
	first := d.Snapshot()
	before := treeDump(first)
	cl, ok := d.Clone(build.Options{Prev: first}, time.Now())
	if !ok {
		t.Fatal("Clone refused a draft with its own snapshot as Prev")
	}
	again, err := build.FromDecoded(c, build.Options{Prev: first}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := treeDump(cl.Snapshot()), treeDump(again); got != want {
		t.Errorf("the copy differs from a rebuild:\n%s", domtest.FirstDiff(want, got, 0))
	}
	for _, o := range []dom.Options{dom.DefaultOptions(), {IncludeHidden: true, IncludeValues: true, IncludeBoundingBoxes: true}} {
		a, _ := flatten.Flatten(cl.Snapshot(), o)
		b, _ := flatten.Flatten(again, o)
		if flatten.FormatText(a) != flatten.FormatText(b) {
			t.Errorf("the copy flattens otherwise than a rebuild (%+v)", o)
		}
	}
	// A copy of the copy, put right for a node whose AX facts changed.
	cl2, ok := cl.Clone(build.Options{Prev: cl.Snapshot()}, time.Now())
	if !ok {
		t.Fatal("Clone refused a copy")
	}
	var button *dom.VirtualNode
	for _, n := range cl2.Snapshot().ByID {
		if n.Role == "button" && (button == nil || n.BackendID < button.BackendID) {
			button = n
		}
	}
	if button == nil {
		t.Fatal("no button in the recording")
	}
	cur := *c.Targets[0]
	ax := *cur.AX[button.BackendID]
	ax.Name = "renamed"
	cur.AX = map[int64]*cdpjson.AXNode{}
	for k, v := range c.Targets[0].AX {
		cur.AX[k] = v
	}
	cur.AX[button.BackendID] = &ax
	if !cl2.Redescribe(&cur, []int64{button.BackendID}, nil) {
		t.Fatal("Redescribe refused a new name")
	}
	if got := cl2.Snapshot().ByID[button.ID].Name; got != "renamed" {
		t.Errorf("the copy's button is named %q, want renamed", got)
	}
	if got := treeDump(first); got != before {
		t.Errorf("copying and putting right changed the first tree:\n%s", domtest.FirstDiff(before, got, 0))
	}
	if got := cl.Snapshot().ByID[button.ID].Name; got == "renamed" {
		t.Errorf("putting right the second copy renamed the first copy's button")
	}
}

// TestCloneRefusesOtherOptions: a copy stands for a build with the same
// rules and the draft's own snapshot as Prev, and for no other.
func TestCloneRefusesOtherOptions(t *testing.T) {
	c, d := draft10k(t)
	other, err := build.FromDecoded(c, build.Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]build.Options{
		"no Prev":      {},
		"another Prev": {Prev: other},
		"a rule off":   {Prev: d.Snapshot(), Disabled: map[string]bool{build.RuleListener: true}},
	} {
		if _, ok := d.Clone(o, time.Now()); ok {
			t.Errorf("%s: Clone made a copy", name)
		}
	}
}

// TestCloneSame: a copy is Same until putting it right changes a node:
// facts fetched again that say what they said keep it Same; a box that
// moved does not.
func TestCloneSame(t *testing.T) {
	c, d := draft10k(t)
	if d.Same() {
		t.Error("a draft that is no copy says it is Same")
	}
	first := d.Snapshot()
	var ids []int64
	for _, n := range first.ByID {
		if n.Role == "button" && len(ids) < 5 {
			ids = append(ids, n.BackendID)
		}
	}
	cl, _ := d.Clone(build.Options{Prev: first}, time.Now())
	if !cl.Redescribe(c.Targets[0], ids, ids) || !cl.Rebound(c.Targets[0], true) || !cl.Same() {
		t.Error("a copy put right with the facts it was built from is not Same")
	}
	cl2, _ := cl.Clone(build.Options{Prev: cl.Snapshot()}, time.Now())
	cur := *c.Targets[0]
	cur.Boxes = map[int64]*cdpjson.Box{}
	moved := false
	for id, b := range c.Targets[0].Boxes {
		if !moved && b.Bounds.W > 0 && b.Bounds.H > 0 {
			nb := *b
			nb.Bounds.Y += 7
			b, moved = &nb, true
		}
		cur.Boxes[id] = b
	}
	if !cl2.Rebound(&cur, true) {
		t.Fatal("Rebound refused a moved box")
	}
	if cl2.Same() {
		t.Error("a copy whose box moved says it is Same")
	}
}

// TestSameNodeReadsEveryField: sameNode must compare every field of a
// VirtualNode. A field added to it must be added there too.
func TestSameNodeReadsEveryField(t *testing.T) {
	if n := reflect.TypeOf(dom.VirtualNode{}).NumField(); n != 21 {
		t.Errorf("VirtualNode has %d fields, sameNode (draft.go) compares 19 and skips Parent and Children: update it", n)
	}
}
