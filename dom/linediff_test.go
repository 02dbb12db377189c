package dom_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"domscope/dom"
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
		d := dom.LineDiff(a, b)
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
