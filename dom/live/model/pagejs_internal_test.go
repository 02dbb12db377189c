package model

import (
	"strings"
	"testing"
)

// TestPageJSParts checks that every marker in a composed page script
// was replaced by its part, and that the parts went in.
func TestPageJSParts(t *testing.T) {
	scripts := map[string]struct{ src, got, part string }{
		"guard": {guardSrc, guardJS, controlKeyJS},
		"still": {stillSrc, stillJS, deepFocusJS},
		"focus": {focusSrc, focusJS, deepFocusJS},
	}
	for name, s := range scripts {
		if !strings.Contains(s.src, "/*@") {
			t.Errorf("%s: its file has no marker", name)
		}
		if strings.Contains(s.got, "/*@") {
			t.Errorf("%s: a marker is left: %q", name, s.got[strings.Index(s.got, "/*@"):][:40])
		}
		if !strings.Contains(s.got, strings.TrimSuffix(s.part, "\n")) {
			t.Errorf("%s: its part is missing", name)
		}
		if strings.HasSuffix(s.got, "\n") {
			t.Errorf("%s: ends with the file's newline", name)
		}
	}
}

func TestPageJS(t *testing.T) {
	got := PageJS("f(/*@a*/, /*@b*/, /*@a*/)\n", "a", "1\n", "b", "x")
	if want := "f(1, x, 1)"; got != want {
		t.Errorf("PageJS = %q, want %q", got, want)
	}
}
