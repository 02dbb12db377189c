package cli

import (
	"strings"
	"testing"
)

// Piped help reads as written: prose the source broke near 80 columns is
// joined and wrapped again, with no word left alone on a line; a table
// keeps its column, or, when the column is past the middle, puts each
// description under its key; short lines (examples) stay as they are.
func TestPlainHelpWrap(t *testing.T) {
	in := strings.Join([]string{
		"  domscope shows a page as an LLM browser agent sees it: the complete VirtualNode",
		"  tree beside the flattened view an LLM reads. Select a node and act on it; the page",
		"  is read again after every action.",
		"",
		"    domscope --url https://example.com",
		"    domscope demo",
		"",
		"    scroll [ID] [down|up|top|bottom] [--flags]  Scroll the page (or over node ID); ID alone brings it into view",
		"    help                                        Help about any command",
		"",
		"    --device    Emulate a phone or tablet (size, scale, mobile, touch, user agent): \"iPhone SE\", \"Pixel 5\"",
	}, "\n")
	var b strings.Builder
	p := &plainHelp{w: &b, width: 80}
	_, _ = p.Write([]byte(in))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		if len(l) > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, len(l), l)
		}
	}
	for _, l := range lines[:3] {
		if len(strings.Fields(l)) < 2 {
			t.Errorf("prose left a word alone: %q\n%s", l, out)
		}
	}
	for _, want := range []string{
		"\n    domscope --url https://example.com\n    domscope demo\n",
		"\n    scroll [ID] [down|up|top|bottom] [--flags]\n        Scroll the page (or over node ID); ID alone brings it into view\n",
		"\n    help\n        Help about any command\n",
		"\n    --device    Emulate a phone or tablet (size, scale, mobile, touch, user\n                agent): \"iPhone SE\", \"Pixel 5\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
}
