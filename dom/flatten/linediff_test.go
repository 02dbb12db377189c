package flatten_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"domscope/dom/flatten"
)

// lcsLen is the length of a longest common subsequence, by the table.
func lcsLen(x, y []string) int {
	t := make([][]int, len(x)+1)
	for i := range t {
		t[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}

func lines(s string) []string {
	if s = strings.TrimSuffix(s, "\n"); s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// On random texts the diff is a shortest one, and a's lines less those
// removed are b's less those added, as a multiset.
func TestLineDiffShortest(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	text := func() string {
		var b strings.Builder
		for range rng.Intn(40) {
			b.WriteString(string(rune('a'+rng.Intn(6))) + "\n")
		}
		return b.String()
	}
	for range 2000 {
		a, b := text(), text()
		d := flatten.LineDiff(a, b)
		x, y := lines(a), lines(b)
		if want := len(x) + len(y) - 2*lcsLen(x, y); len(d) != want {
			t.Fatalf("LineDiff(%q, %q) has %d lines, want %d: %q", a, b, len(d), want, d)
		}
		left, right := slices.Clone(x), slices.Clone(y)
		for _, l := range d {
			side, line := &left, l[2:]
			if strings.HasPrefix(l, "+ ") {
				side = &right
			}
			i := slices.Index(*side, line)
			if i < 0 {
				t.Fatalf("LineDiff(%q, %q): %q is not in its text", a, b, l)
			}
			*side = slices.Delete(*side, i, i+1)
		}
		slices.Sort(left)
		slices.Sort(right)
		if !slices.Equal(left, right) {
			t.Fatalf("LineDiff(%q, %q) = %q leaves %q and %q", a, b, d, left, right)
		}
	}
}

// TestLineDiffByIDDepth: a wrapper that leaves the view moves the lines
// under it up a level. By node, that is one line out, not every line
// under it changed; a changed line is "~", a new one "+".
func TestLineDiffByIDDepth(t *testing.T) {
	a := []flatten.Line{{ID: "n1", Text: "[1] main"}, {ID: "n2", Text: " [2] section"}, {ID: "n3", Text: "  [3] checkbox unchecked"}, {ID: "t4", Text: "  Buy milk"}, {ID: "n5", Text: "  2 items left"}}
	b := []flatten.Line{{ID: "n1", Text: "[1] main"}, {ID: "n3", Text: " [3] checkbox unchecked"}, {ID: "t4", Text: " Buy milk"}, {ID: "n6", Text: " [6] checkbox unchecked"}, {ID: "n5", Text: " 3 items left"}}
	var got []string
	for _, c := range flatten.LineDiffByID(a, b) {
		got = append(got, c.Line())
	}
	want := []string{"-  [2] section", "+  [6] checkbox unchecked", "~  3 items left"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff by node:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The text diff marks every line under the wrapper.
	if n := len(flatten.LineDiff(joinText(a), joinText(b))); n <= len(want) {
		t.Errorf("the text diff lists %d lines: the case does not show the difference", n)
	}
}

func joinText(ls []flatten.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}
