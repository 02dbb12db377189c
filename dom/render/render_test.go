package render_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
	"domscope/dom/query"
	"domscope/dom/render"
)

// TestMaxTokensSheds: the one renderer every front door prints with
// sheds before it cuts, in text and json, in the front door's words; with
// no budget its views are the formats' own.
func TestMaxTokensSheds(t *testing.T) {
	s, err := build.Build(recordings.Load(t, "synthetic-1000"), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	print := func(v render.View) string {
		t.Helper()
		v.Shape = query.Shape{Offscreen: true, Folds: false}
		opts, err := v.Options(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := v.Print(s, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	sd, _ := flatten.Flatten(s, dom.DefaultOptions())
	if got := print(render.View{Format: "text"}); got != flatten.FormatText(sd) {
		t.Errorf("no budget: the text view is not FormatText's")
	}
	whole := flatten.CountTokens(flatten.FormatText(sd))

	text := print(render.View{Format: "text", MaxTokens: whole / 2})
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !regexp.MustCompile(`^… shed 2 structural and \d+ off-screen lines to fit [\d,]+ tokens$`).MatchString(lines[len(lines)-1]) {
		t.Errorf("half the budget: the last line is %q", lines[len(lines)-1])
	}
	if got := flatten.CountTokens(text); got > whole/2 {
		t.Errorf("half the budget: %d tokens, over %d", got, whole/2)
	}
	cut := print(render.View{Format: "text", MaxTokens: 200})
	if !regexp.MustCompile(`\n… \d+ more nodes left out to fit --max-tokens 200: raise it, or narrow the view with --selector or --offscreen=false; shed 2 structural and \d+ off-screen lines\n$`).MatchString(cut) {
		t.Errorf("200 tokens: the view ends:\n%s", cut[max(0, len(cut)-300):])
	}

	j := print(render.View{Format: "json", MaxTokens: whole / 2})
	var back dom.SerializedDom
	if err := json.Unmarshal([]byte(j), &back); err != nil {
		t.Fatal(err)
	}
	if m := back.Nodes[len(back.Nodes)-1]; m.Role != "more" || !strings.HasPrefix(m.Text, "shed 2 structural and ") {
		t.Errorf("json: the last node is %+v", m)
	}
}

// TestPrune: the prune option drops the lines that only group, in text
// and json, and keeps every other line with its id; it is refused with
// the tree format.
func TestPrune(t *testing.T) {
	s, err := build.Build(recordings.Load(t, "synthetic-1000"), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	print := func(v render.View) string {
		t.Helper()
		v.Shape.Offscreen = true
		opts, err := v.Options(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := v.Print(s, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	whole := print(render.View{Format: "text"})
	pruned := print(render.View{Format: "text", Shape: query.Shape{Prune: true}})
	group := regexp.MustCompile(`(?m)^ *\[(12|17)\] (navigation|main)$`)
	if len(group.FindAllString(whole, -1)) != 2 || group.MatchString(pruned) {
		t.Fatalf("prune kept the unnamed navigation or main:\n%s", pruned[:min(len(pruned), 400)])
	}
	trim := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if !group.MatchString(l) {
				out = append(out, strings.TrimLeft(l, " "))
			}
		}
		return strings.Join(out, "\n")
	}
	if trim(whole) != trim(pruned) {
		t.Errorf("prune changed other lines than the 2 that only group")
	}
	if !strings.HasPrefix(pruned, "[13] link \"Home\" href=/\n") {
		t.Errorf("the navigation's links did not move up a level:\n%s", pruned[:200])
	}
	var back dom.SerializedDom
	if err := json.Unmarshal([]byte(print(render.View{Format: "json", Shape: query.Shape{Prune: true}})), &back); err != nil {
		t.Fatal(err)
	}
	for _, n := range back.Nodes {
		if n.Role == "navigation" || n.Role == "main" {
			t.Errorf("json: prune kept the %s", n.Role)
		}
	}
	if err := (render.View{Format: "tree", Shape: query.Shape{Offscreen: true, Prune: true}}).Check(); err == nil || !strings.Contains(err.Error(), "--prune") {
		t.Errorf("tree with prune: %v", err)
	}
}
