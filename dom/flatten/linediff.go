package flatten

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// LineDiff compares two texts line by line. It returns the lines removed
// ("- line") and added ("+ line"), in order, the old lines of a change
// before its new ones. The diff is a shortest one (Myers' algorithm, from
// go-diff), so a few changed lines in a view of thousands are those lines.
func LineDiff(a, b string) []string {
	if a == b {
		return nil
	}
	x, y := splitLines(a), splitLines(b)
	head := 0
	for head < len(x) && head < len(y) && x[head] == y[head] {
		head++
	}
	x, y = x[head:], y[head:]
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	var out []string
	i, j := 0, 0
	for _, m := range matchLines(x, y) {
		for ; i < m[0]; i++ {
			out = append(out, "- "+x[i]) // a line's old form before its new one
		}
		for ; j < m[1]; j++ {
			out = append(out, "+ "+y[j])
		}
		i, j = i+1, j+1
	}
	for ; i < len(x); i++ {
		out = append(out, "- "+x[i])
	}
	for ; j < len(y); j++ {
		out = append(out, "+ "+y[j])
	}
	return out
}

// maxExactLines is how many lines, after dropping those on one side only,
// the diff searches with no time bound. Myers' search takes time in
// proportion to the lines times the changes: milliseconds for a few
// changes in 6,000 lines, seconds for 6,000 shuffled ones. Past this size
// diffGuard bounds it, a hang guard after which the part left is given as
// removed and added, as the old table did past its size.
const (
	maxExactLines = 4000
	diffGuard     = time.Second
)

// matchLines returns the pairs of line indexes (in x, in y) of a longest
// common subsequence, in order. A line found on one side only can never be
// in one, so it is left out of the search, as GNU diff does. After a
// navigation most lines are, and little is left to search.
func matchLines(x, y []string) [][2]int {
	// Each line becomes one rune, skipping the surrogates, which a Go
	// string cannot hold.
	// Sized up front: at 50,000 elements the views hold 100,000 lines,
	// and growing the maps was most of the diff.
	code := make(map[string]rune, min(len(x), len(y)))
	inX := make(map[string]bool, len(x))
	for _, l := range x {
		inX[l] = true
	}
	var cy []rune
	var iy []int
	for j, l := range y {
		if !inX[l] {
			continue
		}
		r, ok := code[l]
		if !ok {
			r = lineRune(len(code))
			if r < 0 {
				return nil // over a million distinct lines: all removed and added
			}
			code[l] = r
		}
		cy = append(cy, r)
		iy = append(iy, j)
	}
	var cx []rune
	var ix []int
	for i, l := range x {
		if r, ok := code[l]; ok {
			cx = append(cx, r)
			ix = append(ix, i)
		}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // exact: a shortest diff
	if len(cx)+len(cy) > maxExactLines {
		dmp.DiffTimeout = diffGuard
	}
	var pairs [][2]int
	i, j := 0, 0
	for _, d := range dmp.DiffMainRunes(cx, cy, false) {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for k := 0; k < n; k++ {
				pairs = append(pairs, [2]int{ix[i+k], iy[j+k]})
			}
			i, j = i+n, j+n
		case diffmatchpatch.DiffDelete:
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		}
	}
	return pairs
}

// lineRune is the rune standing for the n-th distinct line, or -1 when
// there are more lines than runes.
func lineRune(n int) rune {
	r := rune(n + 1)
	if r >= 0xD800 {
		r += 0x800 // past the surrogates
	}
	if r > utf8.MaxRune {
		return -1
	}
	return r
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// LineChange is one line of a diff by node: Mark is '-' (the node's line
// left the view), '+' (it came) or '~' (its line reads otherwise now).
// Old and New are the lines as they were and are, indentation included.
type LineChange struct {
	Mark     byte
	ID       string
	Old, New string
}

// Line is the change as a diff line: "- old", "+ new" or "~ new".
func (c LineChange) Line() string {
	if c.Mark == '-' {
		return "- " + c.Old
	}
	return string(c.Mark) + " " + c.New
}

// LineDiffByID compares two views line by line, pairing lines by their
// node's ID. A line whose content is the same, whatever its depth, is no
// change: a wrapper that left the view does not re-mark every line under
// it. Lines without an ID pair by content. The changes come in the new
// view's order, each removed line after the kept line it followed.
func LineDiffByID(a, b []Line) []LineChange {
	key := func(ls []Line) []string {
		seen := map[string]int{}
		out := make([]string, len(ls))
		for i, l := range ls {
			k := l.ID
			if k == "" {
				k = "\x00" + strings.TrimLeft(l.Text, " ")
			}
			n := seen[k]
			seen[k] = n + 1
			if n > 0 {
				k += "\x00" + strconv.Itoa(n)
			}
			out[i] = k
		}
		return out
	}
	ka, kb := key(a), key(b)
	inB := make(map[string]int, len(b))
	for j, k := range kb {
		inB[k] = j
	}
	inA := make(map[string]int, len(a))
	for i, k := range ka {
		inA[k] = i
	}
	// Removed lines wait for the kept line before them.
	after := map[string][]LineChange{}
	anchor := ""
	for i, k := range ka {
		if _, ok := inB[k]; ok {
			anchor = k
			continue
		}
		after[anchor] = append(after[anchor], LineChange{Mark: '-', ID: a[i].ID, Old: a[i].Text})
	}
	var out []LineChange
	out = append(out, after[""]...)
	for j, k := range kb {
		i, ok := inA[k]
		switch {
		case !ok:
			out = append(out, LineChange{Mark: '+', ID: b[j].ID, New: b[j].Text})
		case strings.TrimLeft(a[i].Text, " ") != strings.TrimLeft(b[j].Text, " "):
			out = append(out, LineChange{Mark: '~', ID: b[j].ID, Old: a[i].Text, New: b[j].Text})
		}
		if ok {
			out = append(out, after[k]...)
		}
	}
	return out
}
