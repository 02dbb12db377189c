package flatten_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// recorded builds and flattens a recorded capture with the defaults.
func recorded(t *testing.T, name string) (*dom.Snapshot, *dom.SerializedDom) {
	t.Helper()
	s, err := build.Build(recordings.Load(t, name), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sd, _ := flatten.Flatten(s, dom.DefaultOptions())
	return s, sd
}

func testNote(n int) []string {
	return []string{fmt.Sprintf("%d more nodes left out to fit the budget: raise it", n), fmt.Sprintf("%d more", n)}
}

var lineID = regexp.MustCompile(`^ *\[(\d+)\] `)

// byID maps each node line of a view to its text without indentation.
func byID(lines []flatten.Line) map[string]string {
	out := map[string]string{}
	for _, l := range lines {
		if l.ID != "" {
			out[l.ID] = strings.TrimLeft(l.Text, " ")
		}
	}
	return out
}

// checkKept: every line kept is a line of the whole view, with its id,
// only its indentation changed, and the view with its closing line fits.
func checkKept(t *testing.T, full, kept []flatten.Line, closing string, budget int) {
	t.Helper()
	all := byID(full)
	for _, l := range kept {
		if l.ID == "" {
			continue
		}
		if want, ok := all[l.ID]; !ok || want != strings.TrimLeft(l.Text, " ") {
			t.Errorf("line %q is not the whole view's line of %s, %q", l.Text, l.ID, want)
		}
	}
	if got := flatten.CountTokens(flatten.JoinLines(kept) + closing + "\n"); got > budget {
		t.Errorf("the view costs %d tokens, over %d", got, budget)
	}
}

// TestShedStructuralFirst: a view a little over its budget loses the lines
// that only group (an unnamed navigation, main) before any other: their
// children move up a level, and the last line says what was shed.
func TestShedStructuralFirst(t *testing.T) {
	s, sd := recorded(t, "synthetic-1000")
	full := flatten.FormatTextLines(sd)
	structural := map[string]bool{}
	for _, l := range full {
		if m := lineID.FindStringSubmatch(l.Text); m != nil && (strings.HasSuffix(l.Text, "] navigation") || strings.HasSuffix(l.Text, "] main")) {
			structural[l.ID] = true
		}
	}
	if len(structural) != 2 {
		t.Fatalf("the recording has %d unnamed navigation and main lines, want 2", len(structural))
	}
	// Two lines' worth under the whole view: shedding them is enough.
	budget := flatten.CountTokens(flatten.FormatText(sd)) - 2
	kept, closing := flatten.FitText(s, sd, budget, testNote)
	checkKept(t, full, kept, closing, budget)
	if closing != "… shed 2 structural lines to fit "+thousands(budget)+" tokens" {
		t.Errorf("closing line %q", closing)
	}
	if len(kept) != len(full)-2 {
		t.Errorf("kept %d of %d lines, want all but the 2 structural", len(kept), len(full))
	}
	for _, l := range kept {
		if structural[l.ID] {
			t.Errorf("structural line kept: %q", l.Text)
		}
		if strings.Contains(l.Text, `link "Home"`) && l.Text != `[13] link "Home" href=/` {
			t.Errorf("the navigation's link did not move up a level: %q", l.Text)
		}
	}
}

// TestShedOffscreen: a view far over its budget keeps every line in the
// viewport and sheds the off-screen lines farthest from it, with no cut.
func TestShedOffscreen(t *testing.T) {
	s, sd := recorded(t, "synthetic-1000")
	full := flatten.FormatTextLines(sd)
	inView := 0
	for _, l := range full {
		if v := s.ByID[l.ID]; v != nil && v.InViewport && !flatten.Container(v) {
			inView++
		}
	}
	if inView == 0 || inView > len(full)/3 {
		t.Fatalf("%d of %d lines in the viewport: the recording does not test shedding", inView, len(full))
	}
	budget := flatten.CountTokens(flatten.FormatText(sd)) / 2
	kept, closing := flatten.FitText(s, sd, budget, testNote)
	checkKept(t, full, kept, closing, budget)
	m := regexp.MustCompile(`^… shed 2 structural and (\d+) off-screen lines to fit ` + thousands(budget) + ` tokens$`).FindStringSubmatch(closing)
	if m == nil {
		t.Fatalf("closing line %q", closing)
	}
	var shed int
	fmt.Sscan(m[1], &shed)
	if len(kept)+2+shed != len(full) {
		t.Errorf("kept %d + shed %d + 2 structural lines, of %d", len(kept), shed, len(full))
	}
	kin, last, first := 0, -1, -1
	pos := map[string]int{}
	for i, l := range full {
		pos[l.ID] = i
	}
	for _, l := range kept {
		v := s.ByID[l.ID]
		if v != nil && v.InViewport && !flatten.Container(v) {
			kin++
			if first < 0 {
				first = pos[l.ID]
			}
			last = pos[l.ID]
		}
	}
	if kin != inView {
		t.Errorf("kept %d of the %d lines in the viewport", kin, inView)
	}
	// The off-screen lines kept are those nearest the viewport's.
	for _, l := range kept {
		if v := s.ByID[l.ID]; v != nil && !v.InViewport && l.ID != "" {
			if p := pos[l.ID]; p < first-len(kept) || p > last+len(kept) {
				t.Errorf("kept off-screen line %d (%q), far from the viewport's %d..%d", p, l.Text, first, last)
			}
		}
	}
}

// TestShedThenCut: when shedding is not enough, the view is cut at a
// whole line, and the one closing line says both.
func TestShedThenCut(t *testing.T) {
	s, sd := recorded(t, "synthetic-1000")
	full := flatten.FormatTextLines(sd)
	for _, budget := range []int{300, 60} {
		kept, closing := flatten.FitText(s, sd, budget, testNote)
		checkKept(t, full, kept, closing, budget)
		if !regexp.MustCompile(`^… \d+ more nodes left out to fit the budget: raise it; shed 2 structural and \d+ off-screen lines$`).MatchString(closing) {
			t.Errorf("budget %d: closing line %q", budget, closing)
		}
		if len(kept) == 0 {
			t.Errorf("budget %d: nothing kept", budget)
		}
	}
	// The smallest budgets keep the cut's barest form.
	if _, closing := flatten.FitText(s, sd, 8, testNote); strings.Contains(closing, "shed") || !strings.HasPrefix(closing, "… ") {
		t.Errorf("budget 8: closing line %q", closing)
	}
}

// TestShedJSON: the json view sheds as the text view does and ends with
// a marker node that says so.
func TestShedJSON(t *testing.T) {
	s, sd := recorded(t, "synthetic-1000")
	whole, _ := flatten.FormatJSON(sd)
	frame, _ := flatten.FormatJSON(&dom.SerializedDom{URL: sd.URL, Title: sd.Title, Timestamp: sd.Timestamp, Frames: sd.Frames})
	small := flatten.CountTokens(string(frame)) + 300
	for _, c := range []struct {
		budget int
		want   string
	}{
		{flatten.CountTokens(string(whole)) / 2, `^shed 2 structural and \d+ off-screen lines to fit [\d,]+ tokens$`},
		{small, `^\d+ more nodes left out to fit the budget: raise it; shed 2 structural and \d+ off-screen lines$`},
	} {
		b, err := flatten.FitJSON(s, sd, c.budget, testNote)
		if err != nil {
			t.Fatal(err)
		}
		if got := flatten.CountTokens(string(b)); got > c.budget {
			t.Errorf("budget %d: %d tokens", c.budget, got)
		}
		var back dom.SerializedDom
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		last := back.Nodes[len(back.Nodes)-1]
		if last.Role != "more" || !regexp.MustCompile(c.want).MatchString(last.Text) {
			t.Errorf("budget %d: the last node is %+v", c.budget, last)
		}
		seen := map[string]bool{}
		var walk func([]*dom.SerializedNode)
		walk = func(l []*dom.SerializedNode) {
			for _, n := range l {
				if n.Role == "main" || n.Role == "navigation" {
					t.Errorf("budget %d: the structural %s is in the json", c.budget, n.Role)
				}
				seen[n.ID] = true
				walk(n.Children)
			}
		}
		walk(back.Nodes)
		if c.budget > 1000 {
			for _, l := range flatten.FormatTextLines(sd) {
				if v := s.ByID[l.ID]; v != nil && v.InViewport && !flatten.Container(v) && !seen[l.ID] {
					t.Errorf("budget %d: %q in the viewport is not in the json", c.budget, l.Text)
				}
			}
		}
	}
}

// TestFitNoBudget: with no budget, or one the view fits, nothing is
// shed: the views are byte for byte the formats'.
func TestFitNoBudget(t *testing.T) {
	for _, name := range []string{"semantic", "synthetic-1000", "hidden"} {
		s, sd := recorded(t, name)
		text, whole := flatten.FormatText(sd), flatten.CountTokens(flatten.FormatText(sd))
		for _, budget := range []int{0, whole} {
			kept, closing := flatten.FitText(s, sd, budget, testNote)
			if flatten.JoinLines(kept) != text || closing != "" {
				t.Errorf("%s, budget %d: the text view changed (closing %q)", name, budget, closing)
			}
		}
		j, _ := flatten.FormatJSON(sd)
		if b, err := flatten.FitJSON(s, sd, 0, testNote); err != nil || string(b) != string(j) {
			t.Errorf("%s: the json view changed: %v", name, err)
		}
	}
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
