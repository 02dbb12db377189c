package mcp

import (
	"strings"
	"testing"

	"domscope/dom/query"
)

// TestCutNoteAdvice: the note after a cut advises only what the call did
// not already do.
func TestCutNoteAdvice(t *testing.T) {
	for _, c := range []struct {
		o         viewOpts
		want, not []string
	}{
		{viewOpts{Shape: query.Shape{Offscreen: true}, maxTokens: 50}, []string{"a larger maxTokens", "a selector", "offscreen:false"}, nil},
		{viewOpts{Shape: query.Shape{Offscreen: false}, maxTokens: 50}, []string{"a larger maxTokens", "a selector"}, []string{"offscreen:false"}},
		{viewOpts{Shape: query.Shape{Offscreen: false, Selector: "form"}, maxTokens: 50}, []string{"a larger maxTokens"}, []string{"offscreen:false", "selector"}},
	} {
		note := cutNote(c.o)(7)[0]
		for _, w := range c.want {
			if !strings.Contains(note, w) {
				t.Errorf("%+v: %q lacks %q", c.o, note, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(note, n) {
				t.Errorf("%+v: %q advises %q, already done", c.o, note, n)
			}
		}
	}
}
