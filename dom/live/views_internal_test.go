package live

import (
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// TestPrevTextMakesNoView: an action on a stale snapshot captures one
// only to find its target. Its text is read for the line diff, but no
// view of it is kept. Else its tree and decisions stay held through the
// action, and the shown view, whose token counts the next view reuses,
// is pushed out.
func TestPrevTextMakesNoView(t *testing.T) {
	raw := recordings.Load(t, "synthetic-10000")
	shown, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := build.Build(raw, build.Options{Prev: shown})
	if err != nil {
		t.Fatal(err)
	}
	opts := dom.DefaultOptions()
	s := &Service{}
	v, err := s.View(shown, opts, false)
	if err != nil || v == nil {
		t.Fatalf("view: %v", err)
	}
	want, err := flatten.NewView(fresh, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := joinLines(s.linesOf(fresh)); got != want.Text {
		t.Errorf("the text of a snapshot without a view is not its flat text")
	}
	if len(s.derived.views) != 1 || s.derived.views[0] != v {
		t.Errorf("reading the text of a snapshot never shown kept a view of it, or dropped the shown one (%d views)", len(s.derived.views))
	}
	if joinLines(s.linesOf(shown)) != v.Text {
		t.Errorf("a snapshot with a view did not give that view's text")
	}
}

// joinLines is the text of view lines.
func joinLines(ls []flatten.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}
