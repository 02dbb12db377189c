package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestSnapshotPrune: --prune drops the lines that only group (an unnamed
// banner, main, list) and keeps every other line with its id, in the
// direct snapshot and in a session's (dom_snapshot {prune}).
func TestSnapshotPrune(t *testing.T) {
	e := newAgentEnv(t)
	url := e.base + "/mcp/look/cards.html"
	direct := func(args ...string) string {
		t.Helper()
		out, stderr, code := runCLI(t, "", append([]string{"snapshot", "--endpoint", e.ws, "--url", url, "--direct"}, args...)...)
		if code != 0 {
			t.Fatalf("snapshot %v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	whole, pruned := direct(), direct("--prune")
	e.ok("goto", url, "--session", "p")
	session := e.ok("snapshot", "--prune", "--session", "p")
	group := regexp.MustCompile(`(?m)^ *\[\d+\] (banner|main|list)$`)
	if n := len(group.FindAllString(whole, -1)); n != 2 {
		t.Fatalf("the whole view has %d unnamed banner, main and list lines, want 2:\n%s", n, whole)
	}
	for name, view := range map[string]string{"direct": pruned, "session": session} {
		if group.MatchString(view) {
			t.Errorf("%s --prune kept a line that only groups:\n%s", name, view)
		}
		if !regexp.MustCompile(`(?m)^\[\d+\] listitem$`).MatchString(view) || !strings.Contains(view, `h3 "Camera model 1"`) {
			t.Errorf("%s --prune lost the items or moved them wrongly:\n%s", name, view)
		}
	}
	// Every other line stays, with its id; only its indentation changes.
	trim := func(s string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
			if !group.MatchString(l) {
				out = append(out, strings.TrimLeft(l, " "))
			}
		}
		return out
	}
	if w, p := trim(whole), trim(pruned); strings.Join(w, "\n") != strings.Join(p, "\n") {
		t.Errorf("--prune changed other lines:\n%s\n---\n%s", strings.Join(w, "\n"), strings.Join(p, "\n"))
	}
	// A budget sheds the same lines, then off-screen ones, and says so.
	fit := direct("--folds=false", "--max-tokens", "1500")
	if !regexp.MustCompile(`\n… shed 2 structural and \d+ off-screen lines to fit 1,500 tokens\n$`).MatchString(fit) || !strings.Contains(fit, `h3 "Camera model 1"`) {
		t.Errorf("--max-tokens 1500:\n%s", fit)
	}
	for name, view := range map[string]string{"whole": whole, "pruned": pruned, "session": session, "max-tokens": fit} {
		if strings.Contains(view, "sekrit") || !strings.Contains(view, "••••") {
			t.Errorf("%s: the page's password is not masked:\n%s", name, view)
		}
	}
	if _, stderr, code := runCLI(t, "", "snapshot", "--format", "tree", "--prune"); code != 2 || !strings.Contains(stderr, "--prune") {
		t.Errorf("--format tree --prune: exit %d, %s", code, stderr)
	}
}
