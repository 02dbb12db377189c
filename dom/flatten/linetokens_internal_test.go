package flatten

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/recordings"
)

// TestChunkCountsAddUp: counting a flat view's text chunk by chunk gives
// what counting it whole gives, on every recorded page and on texts made
// to break it (lines that start with a slash, empty lines, punctuation
// at line ends).
func TestChunkCountsAddUp(t *testing.T) {
	c, err := o200k()
	if err != nil {
		t.Skip("no o200k codec")
	}
	whole := func(s string) int {
		n, err := c.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	texts := map[string]string{
		"slashes":     "[1] link \"a\"\n/path/x\n  [2] text \"b\".\n/\n\n\n  //c\n[3] x:\n\r\n",
		"punctuation": "[1] heading \"Title\":\n  [2] text \"…\"\n  ...\n[3] text 'quoted'\n  \"\n\n",
		"spaces":      "[1] a   \n   \n  [2] b\n\t[3] c\n",
		"no newline":  "[1] a\n  [2] b",
	}
	files, _ := filepath.Glob(filepath.Join(recordings.Dir, "*.json*"))
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".gz"), ".json")
		raw := recordings.Load(t, name)
		s, err := build.Build(raw, build.Options{})
		if err != nil {
			continue
		}
		sd, _ := Flatten(s, dom.DefaultOptions())
		texts[name] = FormatText(sd)
	}
	t.Logf("%d texts", len(texts))
	if len(texts) < 8 {
		t.Fatalf("only %d texts", len(texts))
	}
	for name, text := range texts {
		got, _ := countChunks(text, nil, whole)
		if want := whole(text); got != want {
			t.Errorf("%s: %d tokens by chunks, %d whole", name, got, want)
		}
	}
	// Random lines of the characters that decide where pieces end.
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{" ", "  ", "\n", "\r", "/", "[", "]", "\"", "'", ".", ":", "…", "a", "B", "é", "7", "12", "'s", "\t", "=", "-", "世"}
	for i := range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(40) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		text := b.String()
		got, _ := countChunks(text, nil, whole)
		if want := whole(text); got != want {
			t.Fatalf("random text %d %q: %d tokens by chunks, %d whole", i, text, got, want)
		}
	}
}

// TestCountAfterCountsChangedLines: a view counted after an earlier one
// gives the whole count, and counts only the chunks not in the earlier.
func TestCountAfterCountsChangedLines(t *testing.T) {
	if _, err := o200k(); err != nil {
		t.Skip("no o200k codec")
	}
	s1, err := build.Build(recordings.Load(t, "synthetic-10000"), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v1, err := NewView(s1, dom.DefaultOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	if v1.Counted() {
		t.Fatal("counted before it was asked")
	}
	if got, want := v1.Tokens(), CountTokens(v1.Text); got != want {
		t.Fatalf("%d tokens, counted whole %d", got, want)
	}
	// The same page with two names changed.
	s2, err := build.Build(recordings.Load(t, "synthetic-10000"), build.Options{Prev: s1})
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	dom.Walk(s2.Root, func(n *dom.VirtualNode) {
		if changed < 2 && n.Tag == "button" && n.Visible && n.Name != "" {
			n.Name += " changed"
			changed++
		}
	})
	v2, err := NewView(s2, dom.DefaultOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	v2.CountAfter(v1)
	if got, want := v2.Tokens(), CountTokens(v2.Text); got != want || got == v1.Tokens() {
		t.Errorf("%d tokens after the change, counted whole %d, before %d", got, want, v1.Tokens())
	}
	calls := 0
	countChunks(v2.Text, v1.counted.Load(), func(string) int { calls++; return 1 })
	if calls != changed {
		t.Errorf("%d chunks counted again, %d changed", calls, changed)
	}
}
