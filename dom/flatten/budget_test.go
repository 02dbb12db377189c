package flatten

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
)

// TestViewOptions: offscreen nodes are counted with a marker, Roots
// flattens only a subtree, bounds reach the text format.
func TestViewOptions(t *testing.T) {
	s := fixture.MustBuild(t, fixture.Page(
		fixture.El("a", []string{"id", "in", "href", "/"}, fixture.Txt("Near")).AX("link", "Near").At(10, 10, 50, 20),
		fixture.El("a", []string{"id", "out", "href", "/"}, fixture.Txt("Far")).AX("link", "Far").At(10, 5000, 50, 20),
		fixture.El("p", []string{"id", "para"}, fixture.Txt("A far paragraph of text.")).At(10, 5100, 300, 20),
	), build.Options{})
	o := dom.DefaultOptions()
	o.IncludeOffscreen = false
	sd, _ := Flatten(s, o)
	text := FormatText(sd)
	if sd.Outside != 2 || !strings.Contains(text, "… 2 more nodes outside the viewport (1 interactive) not shown") {
		t.Errorf("outside %d:\n%s", sd.Outside, text)
	}
	if strings.Contains(text, "Far") || !strings.Contains(text, `link "Near"`) {
		t.Errorf("offscreen false:\n%s", text)
	}
	o = dom.DefaultOptions()
	o.Roots = []string{fixture.Find(s, fixture.ByAttr("id", "out")).ID}
	o.IncludeBoundingBoxes = true
	sd, _ = Flatten(s, o)
	if text := FormatText(sd); !strings.HasPrefix(text, "[") || !strings.Contains(text, `link "Far" href=/ @10,5000 50x20`) || strings.Contains(text, "Near") {
		t.Errorf("roots and bounds:\n%s", text)
	}
}

// TestCuts: a budget cuts at a whole line or node and counts the rest.
func TestCuts(t *testing.T) {
	s := fixture.MustBuild(t, richPage(), build.Options{})
	sd, _ := Flatten(s, dom.DefaultOptions())
	lines := FormatTextLines(sd)
	all := CountTokens(FormatText(sd))
	note := func(n int) []string {
		return []string{fmt.Sprintf("%d more nodes left out to fit the budget: raise it, or narrow the view", n), fmt.Sprintf("%d more", n)}
	}
	kept, omitted, closing := CutText(lines, 0, note)
	if len(kept) != len(lines) || omitted != 0 || closing != "" {
		t.Errorf("no budget cut %d lines", omitted)
	}
	kept, omitted, _ = CutText(lines, all/2, note)
	if omitted == 0 || len(kept)+omitted != len(lines) || CountTokens(JoinLines(kept)) > all/2 {
		t.Errorf("half the budget: kept %d, omitted %d of %d", len(kept), omitted, len(lines))
	}
	// Every budget holds the view and its closing line, whose form is the
	// longest that fits; the count in it is the lines left out.
	for _, budget := range []int{1, 3, 5, 10, 20, 40, 60, 100} {
		kept, omitted, closing := CutText(lines, budget, note)
		text := JoinLines(kept)
		if closing != "" {
			text += closing + "\n"
		}
		if got := CountTokens(text); got > budget {
			t.Errorf("budget %d: %d tokens:\n%s", budget, got, text)
		}
		if budget >= 5 && !strings.HasPrefix(closing, fmt.Sprintf("… %d more", omitted)) {
			t.Errorf("budget %d: closing line %q for %d left out", budget, closing, omitted)
		}
		if budget >= 20 && len(kept) == 0 {
			t.Errorf("budget %d: only the closing line, no view: %q", budget, closing)
		}
		if budget >= 60 && !strings.Contains(closing, "raise it") {
			t.Errorf("budget %d: the closing line lost its advice: %q", budget, closing)
		}
	}
	c, left := CutNodes(sd, 3)
	if countSerialized(c.Nodes) != 3 || left != sd.NodeCount-3 || countSerialized(sd.Nodes) != sd.NodeCount {
		t.Errorf("CutNodes 3: kept %d, left %d of %d (the original has %d)", countSerialized(c.Nodes), left, sd.NodeCount, countSerialized(sd.Nodes))
	}
	full, _ := FormatJSON(sd)
	b, omitted, err := CutJSON(sd, CountTokens(string(full))/2, func(n int) []string { return []string{"cut " + string(rune('0'+n%10))} })
	if err != nil || omitted == 0 || CountTokens(string(b)) > CountTokens(string(full))/2 {
		t.Fatalf("CutJSON: %v, omitted %d, %d tokens", err, omitted, CountTokens(string(b)))
	}
	var back dom.SerializedDom
	if err := json.Unmarshal(b, &back); err != nil || back.Nodes[len(back.Nodes)-1].Role != "more" {
		t.Errorf("cut json does not end with its marker: %v\n%s", err, b)
	}
}
