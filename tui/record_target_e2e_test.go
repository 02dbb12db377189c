package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/script"
)

// A click in the UI on a nameless box in a shadow root is done. It is
// recorded as a comment line that says why it is not replayed. A box in
// the document is recorded as its CSS path, checked on the page. No node
// ID reaches the recording.
func TestUIRecordsNoNodeIDs(t *testing.T) {
	base, _ := cdptest.Serve(t, "../testdata/pages/actions")
	p := cdptest.Page(t, base+"/anonymous.html")
	svc := live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	var rec bytes.Buffer
	m := newModel(context.Background(), Config{Actor: svc, NoColor: true, Theme: "dark", NoHighlight: true,
		Record: &rec, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	settle(t, m, m.refresh(false, "first snapshot"))
	click := func(onclick string) {
		t.Helper()
		var id string
		dom.Walk(m.doc.snap.Root, func(n *dom.VirtualNode) {
			if id == "" && n.Attrs["onclick"] == onclick {
				id = n.ID
			}
		})
		if id == "" || !m.panes.tree.Reveal(id) {
			t.Fatalf("no box %s", onclick)
		}
		m.panes.focus = treeFocus
		press(t, m, k('c'))
	}
	click("hit('shadow-2')")
	if !strings.Contains(m.status.flash, "recording: NODE_NOT_FOUND: div generic: it has no accessible name or test id, and it is inside a shadow root") {
		t.Errorf("the flash after the click: %q", m.status.flash)
	}
	click("hit('sec-2')")
	got := strings.Split(strings.TrimSuffix(rec.String(), "\n"), "\n")
	if len(got) != 3 || !strings.HasPrefix(got[1], `# {"action":"click","comment":"`+script.NoTargetComment) ||
		got[2] != `{"action":"click","target":{"css":"html > body > main > section > div:nth-of-type(2)"}}` || strings.Contains(rec.String(), "node_") {
		t.Errorf("--record holds:\n%s", rec.String())
	}
	var r struct {
		Result struct{ Value []string } `json:"result"`
	}
	if err := p.Call(context.Background(), "Runtime.evaluate", map[string]any{"expression": "window.hits", "returnByValue": true}, &r); err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Result.Value, " ") != "shadow-2 sec-2" {
		t.Errorf("the page got clicks on %q", r.Result.Value)
	}
}
