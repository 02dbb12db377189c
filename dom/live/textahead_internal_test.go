package live

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// TestPrevTextMadeWhileSettling: an action on a snapshot no one viewed
// makes that snapshot's text while the page settles. The diff reads it
// for its line diff. Made after the re-snapshot, it cost a script's first
// click about 80 ms at 50,000 elements. The quiet window is two seconds
// here, so a loaded machine's slow click still leaves room.
func TestPrevTextMadeWhileSettling(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><title>ahead</title><p id=out>none</p>
<button id=go onclick="out.textContent = 'clicked'">go</button>`
	if err := os.WriteFile(filepath.Join(dir, "ahead.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	s := NewService(cdptest.Page(t, base+"/ahead.html"), Config{QuietWindow: 2 * time.Second})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	prev, err := s.Snapshot(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	var button *dom.VirtualNode
	dom.Walk(prev.Root, func(n *dom.VirtualNode) {
		if n.Attrs["id"] == "go" {
			button = n
		}
	})
	if button == nil {
		t.Fatal("no button in the snapshot")
	}
	want := joinLines(plainLines(prev))

	done := make(chan dom.ActionResult, 1)
	go func() { done <- s.Do(ctx, dom.Action{Kind: dom.KindClick, ID: button.ID}) }()
	var made *textAhead
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for made == nil {
		select {
		case res := <-done:
			t.Fatalf("the click ended (%v) before the text of the snapshot it started from was made", res.Error)
		case <-tick.C:
		}
		s.mu.Lock()
		a := s.derived.ahead
		s.mu.Unlock()
		if a == nil || a.snap != prev {
			continue
		}
		select {
		case <-a.done:
			made = a
		default:
		}
	}
	res := <-done
	if !res.Success {
		t.Fatalf("click: %v", res.Error)
	}
	if !made.ok || joinLines(made.lines) != want {
		t.Errorf("the text made while settling is not the snapshot's flat text")
	}
	if len(res.Changes.Flat) == 0 {
		t.Errorf("the click's changes list no flat lines: %+v", res.Changes)
	}
	s.mu.Lock()
	kept := s.derived.ahead
	s.mu.Unlock()
	if kept != nil {
		t.Errorf("the text made ahead is still held after the action: it holds the old tree")
	}
}
