package mcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"domscope/dom"
)

// domCodes reads every Code constant the dom package declares, so a code
// added later is checked too.
func domCodes(t *testing.T) []dom.Code {
	t.Helper()
	paths, err := filepath.Glob("../*.go")
	if err != nil {
		t.Fatal(err)
	}
	var codes []dom.Code
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || vs.Type == nil {
				return true
			}
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				return true
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok {
					codes = append(codes, dom.Code(strings.Trim(lit.Value, `"`)))
				}
			}
			return true
		})
	}
	if len(codes) < 10 {
		t.Fatalf("found only %d codes in package dom: %v", len(codes), codes)
	}
	return codes
}

// saysRetry matches a step that tells the agent to make the same call
// again.
var saysRetry = regexp.MustCompile(`(?i)\bretry|\bagain\b|\btry\b`)

// checkAdvice fails when the text's retryable line and next line
// disagree.
func checkAdvice(t *testing.T, what, text string, wantRetry bool) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "retryable: ") || !strings.HasPrefix(lines[2], "next: ") {
		t.Errorf("%s: want CODE, retryable and next lines, got %q", what, text)
		return
	}
	want := "retryable: no"
	if wantRetry {
		want = "retryable: yes"
	}
	if lines[1] != want {
		t.Errorf("%s: %q, want %q", what, lines[1], want)
	}
	if !wantRetry && saysRetry.MatchString(lines[2]) {
		t.Errorf("%s: %q contradicts %q", what, lines[2], lines[1])
	}
}

// TestAdviceAgrees walks every error code, marked retryable or not, and
// every hint the server gives, and checks that retryable: and next:
// agree.
func TestAdviceAgrees(t *testing.T) {
	for _, c := range domCodes(t) {
		if _, ok := next[c]; !ok {
			t.Errorf("%s has no advice in the table", c)
		}
		def := dom.Errorf(c, nil, "x")
		checkAdvice(t, string(c)+" (default)", errorText(def, ""), def.Recoverable)
		for _, rec := range []bool{true, false} {
			e := &dom.Error{Code: c, Message: "x", Recoverable: rec}
			checkAdvice(t, string(c), errorText(e, ""), rec)
		}
	}
	// The hints, with the errors they come with.
	closed := dom.Errorf(dom.NotAttached, nil, "the selected tab was closed")
	closed.Recoverable = false
	checkAdvice(t, "closed tab", errorText(closed, hintClosedTab), false)
	nob := dom.Errorf(dom.AttachFailed, nil, "no browser")
	nob.Recoverable = true
	checkAdvice(t, "no browser", errorText(nob, hintNoBrowser), true)
	paused := dom.Errorf(dom.Timeout, nil, "the session is paused")
	checkAdvice(t, "paused", errorText(paused, hintPaused), true)
	snap := &dom.Snapshot{Root: &dom.VirtualNode{ID: "node_1", NodeType: dom.ElementNode, Role: "button", Name: "Save"}}
	se, hint := staleError(dom.Errorf(dom.NodeNotFound, nil, "x"), "node_2", nodeSig{"button", "Save", "button"}, snap)
	if hint == "" {
		t.Fatal("staleError gave no hint for a near match")
	}
	checkAdvice(t, "stale", errorText(se, hint), se.Recoverable)
}
