package live_test

import (
	"path/filepath"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom/live"
)

// A page script replaces the text of a heading and of a link
// (textContent +=), with no layout-moving state. The refresh must still
// match a full capture: the new text nodes need their own layout.
func TestIncrementalTextReplaced(t *testing.T) {
	base, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "readability"))
	p := cdptest.Page(t, base+"/wikipedia-2/source.html")
	svc := live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	tw := newTwin(t, svc, p)
	if _, err := svc.Snapshot(ctx(t), false); err != nil {
		t.Fatal(err)
	}
	expr := `document.querySelector('h1').textContent += ' (edited)';
		[...document.querySelectorAll('a')].filter(a => a.textContent.trim() && a.offsetParent).at(-1).textContent += ' (edited)'; 1`
	if err := p.Call(ctx(t), "Runtime.evaluate", map[string]any{"expression": expr}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snapshot(ctx(t), true); err != nil {
		t.Fatal(err)
	}
	tw.check(t, "after the edit")
}
