package flatten

import (
	"fmt"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
	"domscope/dom/internal/recordings"
)

// cardsPage is a list of n same-shaped cards, each a heading and a
// button, and a password field whose value must never show.
func cardsPage(n int) *fixture.Node {
	var items []*fixture.Node
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("Camera model %d", i)
		items = append(items, fixture.El("li", nil,
			fixture.El("h3", nil, fixture.Txt(name)).AX("heading", name),
			fixture.El("button", nil, fixture.Txt("Add to cart")).AX("button", "Add to cart"),
		).AX("listitem", ""))
	}
	pw := fixture.El("input", []string{"type", "password", "value", "hunter2secret"}).AX("textbox", "Password")
	pw.Value = "hunter2secret"
	return fixture.Page(
		fixture.El("main", nil,
			fixture.El("h1", nil, fixture.Txt("Shop")).AX("heading", "Shop"),
			fixture.El("ul", []string{"id", "cards"}, items...).AX("list", ""),
			fixture.El("form", nil, pw).AX("form", "Sign in"),
		).AX("main", ""),
	)
}

// TestInteractiveView: one line per control; a repeated control says the
// item it sits in; text appears only as context; the password's value
// never shows.
func TestInteractiveView(t *testing.T) {
	s := fixture.MustBuild(t, cardsPage(5), build.Options{})
	o := dom.DefaultOptions()
	o.Interactive = true
	sd, _ := Flatten(s, o)
	text := FormatText(sd)
	for _, want := range []string{
		`main › h3 "Camera model 1"`,
		"h3 \"Camera model 2\"\n[16] button \"Add to cart\"",
		`form "Sign in"`,
		`textbox "Password"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the interactive view:\n%s", want, text)
		}
	}
	if strings.Contains(text, "hunter2secret") {
		t.Errorf("the interactive view shows a password:\n%s", text)
	}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.HasPrefix(l, " ") {
			t.Errorf("an indented line in a flat view: %q", l)
		}
	}
	full, _ := Flatten(s, dom.DefaultOptions())
	if got, all := CountTokens(text), CountTokens(FormatText(full)); got >= all {
		t.Errorf("interactive view %d tokens, the full one %d", got, all)
	}
}

// TestFoldRepeats: 300 cards show three and a line with the count, the
// range and the selector that shows them all; ids are the same either
// way; the selector shows every card.
func TestFoldRepeats(t *testing.T) {
	s := fixture.MustBuild(t, cardsPage(300), build.Options{})
	o := dom.DefaultOptions()
	o.Fold = true
	sd, _ := Flatten(s, o)
	text := FormatText(sd)
	list := fixture.Find(s, fixture.ByAttr("id", "cards"))
	first := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "listitem") && first == "" {
			first = strings.TrimSpace(l)[1:strings.Index(strings.TrimSpace(l), "]")]
		}
	}
	want := fmt.Sprintf(`… 297 more listitem like [%s] ("Camera model 4" … "Camera model 300"; dom_snapshot selector [%s] for all)`, first, shortID(list.ID))
	if !strings.Contains(text, want) {
		t.Errorf("no fold line %q:\n%s", want, text)
	}
	if n := strings.Count(text, "Camera model"); n != 5 { // three cards and the range
		t.Errorf("%d cards named, want 3 and the range:\n%s", n, text)
	}
	if strings.Contains(text, "hunter2secret") {
		t.Errorf("the folded view shows a password")
	}
	if got := CountTokens(text); got > 2000 {
		t.Errorf("folded view of 300 cards: %d tokens", got)
	}
	// the same ids with folding off; the selector shows them all
	off, _ := Flatten(s, dom.DefaultOptions())
	offText := FormatText(off)
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") && !strings.Contains(offText, strings.TrimSpace(l)) {
			t.Errorf("line %q is not in the unfolded view", l)
		}
	}
	sel := o
	sel.Roots = []string{list.ID}
	all, _ := Flatten(s, sel)
	if n := strings.Count(FormatText(all), "listitem"); n != 300 {
		t.Errorf("the selector on the list shows %d items, want 300", n)
	}
	// the rule in x switches it off
	o.Disabled = map[string]bool{FlatFoldRepeats: true}
	noFold, _ := Flatten(s, o)
	if FormatText(noFold) != offText {
		t.Errorf("fold-repeats off: the view differs from the unfolded one")
	}
}

// TestFoldsOffSame: with folding and the modal scope asked but switched
// off by their rules, every recording formats byte for byte as without.
func TestFoldsOffSame(t *testing.T) {
	for name := range goldenRecordingNames {
		raw := recordings.Load(t, name)
		s, err := build.Build(raw, build.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Flatten(s, dom.DefaultOptions())
		o := dom.DefaultOptions()
		o.Fold, o.ModalScope = true, true
		o.Disabled = map[string]bool{FlatFoldRepeats: true, FlatModalScope: true}
		got, _ := Flatten(s, o)
		if FormatText(got) != FormatText(want) {
			t.Errorf("%s: the view with folds off differs", name)
		}
	}
}

var goldenRecordingNames = map[string]bool{"semantic": true, "nonsemantic": true, "hidden": true, "privacy": true, "synthetic-1000": true}

// TestFoldMixedShapes: a list whose items differ in shape does not fold.
func TestFoldMixedShapes(t *testing.T) {
	var items []*fixture.Node
	for i := 0; i < 12; i++ {
		var kid *fixture.Node
		switch i % 3 {
		case 0:
			kid = fixture.El("a", []string{"href", "/x"}, fixture.Txt(fmt.Sprint("link ", i))).AX("link", fmt.Sprint("link ", i))
		case 1:
			kid = fixture.El("button", nil, fixture.Txt(fmt.Sprint("button ", i))).AX("button", fmt.Sprint("button ", i))
		default:
			kid = fixture.El("input", []string{"type", "checkbox"}).AX("checkbox", fmt.Sprint("box ", i))
		}
		items = append(items, fixture.El("li", nil, kid).AX("listitem", ""))
	}
	s := fixture.MustBuild(t, fixture.Page(fixture.El("ul", nil, items...).AX("list", "")), build.Options{})
	o := dom.DefaultOptions()
	o.Fold = true
	sd, _ := Flatten(s, o)
	if text := FormatText(sd); strings.Contains(text, "… ") {
		t.Errorf("a list of mixed items folded:\n%s", text)
	}
}

// A run of bare controls (a toolbar) stays whole: each line is an action
// the agent may need. Items that hold a control and its text fold.
func TestFoldLeavesControls(t *testing.T) {
	var bare, wrapped []*fixture.Node
	for i := 0; i < 12; i++ {
		name := fmt.Sprint("Tool ", i)
		bare = append(bare, fixture.El("button", nil, fixture.Txt(name)).AX("button", name))
		wrapped = append(wrapped, fixture.El("li", nil,
			fixture.El("h3", nil, fixture.Txt(name)).AX("heading", name),
			fixture.El("button", nil, fixture.Txt("Use")).AX("button", "Use")).AX("listitem", ""))
	}
	o := dom.DefaultOptions()
	o.Fold = true
	for _, tc := range []struct {
		name  string
		page  *fixture.Node
		folds bool
	}{
		{"toolbar", fixture.Page(fixture.El("div", []string{"role", "toolbar"}, bare...).AX("toolbar", "Tools")), false},
		{"list", fixture.Page(fixture.El("ul", nil, wrapped...).AX("list", "")), true},
	} {
		sd, _ := Flatten(fixture.MustBuild(t, tc.page, build.Options{}), o)
		text := FormatText(sd)
		if got := strings.Contains(text, "… 9 more"); got != tc.folds {
			t.Errorf("%s: folded %v, want %v:\n%s", tc.name, got, tc.folds, text)
		}
		if !strings.Contains(text, `"Tool 11"`) && !tc.folds {
			t.Errorf("%s: the last control is not offered:\n%s", tc.name, text)
		}
	}
}
