package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestAgentFind: `domscope find TEXT` answers as dom_find does, with ids
// the session's actions take; it checks its arguments (exit 2) and never
// shows a password field's value, typed or set by the page.
func TestAgentFind(t *testing.T) {
	e := newAgentEnv(t)
	e.ok("goto", e.base+"/mcp/look/cards.html", "--session", "f")
	out := e.ok("find", "Camera model 250", "--session", "f")
	if !strings.Contains(out, `h3 "Camera model 250"`) || strings.Contains(out, `"Camera model 17"`) {
		t.Errorf("find Camera model 250 answered:\n%s", out)
	}
	if !strings.Contains(out, "chunks") {
		t.Errorf("find does not say what it left out:\n%s", out)
	}
	// The card's button is the one under its heading; its id acts.
	m := regexp.MustCompile(`h3 "Camera model 250"\n(?:.*\n)*? *\[(\d+)\] button "Add to cart"`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no button under the card's heading:\n%s", out)
	}
	if view := e.ok("snapshot", "--folds=false", "--session", "f"); !strings.Contains(view, "["+m[1]+`] button "Add to cart"`) {
		t.Errorf("find's id [%s] is not the snapshot's button", m[1])
	}
	if got := e.ok("click", m[1], "--session", "f"); !strings.HasPrefix(got, "click ["+m[1]+"]") {
		t.Errorf("click on find's id answered:\n%s", got)
	}
	if small := e.ok("find", "Camera", "--max-tokens", "60", "--session", "f"); len(small) >= len(out)*2 || !strings.Contains(small, "left out") {
		t.Errorf("find --max-tokens 60 answered:\n%s", small)
	}

	// The page set the password; the agent types another.
	view := e.ok("snapshot", "--session", "f")
	pw := viewID(t, view, `textbox "Password"`)
	const typed = "HUNTER2typed"
	e.ok("type", pw, typed, "--session", "f")
	var outs []string
	for _, args := range [][]string{
		{"find", "Password", "--session", "f"},
		{"find", "Password", "--session", "f", "--json"},
		{"find", "Cameras Password", "--session", "f", "--steps"},
	} {
		out, stderr, code := e.run(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		outs = append(outs, out+stderr)
	}
	if !strings.Contains(outs[0], "type=password") {
		t.Errorf("find Password does not show the field:\n%s", outs[0])
	}
	for i, out := range outs {
		for _, s := range []string{"sekrit", typed, "HUNTER"} {
			if strings.Contains(out, s) {
				t.Errorf("find answer %d holds the password %q:\n%s", i, s, out)
			}
		}
	}

	for _, args := range [][]string{
		{"find", "--session", "f"},
		{"find", "a", "b", "--session", "f"},
		{"find", "  ", "--session", "f"},
		{"find", "Camera", "--max-tokens", "many", "--session", "f"},
		{"find", "Camera", "--max-tokens", "0", "--session", "f"},
	} {
		if _, stderr, code := e.run(args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
