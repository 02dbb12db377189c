package tui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom/live"
)

// On wikipedia-2 (a flat view of about 6,000 lines) the page changes its
// heading and its last link. d lists those two lines out and in, not the
// whole view removed and added.
func TestDiffLayerLargeView(t *testing.T) {
	base, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "readability"))
	p := cdptest.Page(t, base+"/wikipedia-2/source.html")
	svc := live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	m := newModel(context.Background(), Config{Actor: svc, NoColor: true, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	settle(t, m, m.refresh(false, "first snapshot"))
	if n := strings.Count(m.doc.view.Text, "\n"); n < 5000 {
		t.Fatalf("the flat view has %d lines, want a large one", n)
	}
	expr := `document.querySelector('h1').textContent += ' (edited)';
		[...document.querySelectorAll('a')].filter(a => a.textContent.trim() && a.offsetParent).at(-1).textContent += ' (edited)'; 1`
	if err := p.Call(context.Background(), "Runtime.evaluate", map[string]any{"expression": expr}, nil); err != nil {
		t.Fatal(err)
	}
	press(t, m, k('r'))
	press(t, m, k('d'))
	screen := plainScreen(m)
	if !strings.Contains(screen, "the flat view's lines (4)") || !strings.Contains(screen, `+ [`) || !strings.Contains(screen, `h1 "New Zealand (edited)"`) {
		t.Errorf("the diff of the flat view:\n%s", screen)
	}
}
