package live_test

import (
	"context"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestBrowserKilledWhileNavigating: a navigate action waits for a page
// whose image never comes; the browser is killed meanwhile. The action
// ends with NOT_ATTACHED, not a success without a snapshot or a wait for
// the navigation bound. The hang guard is the action's 3-minute context.
func TestBrowserKilledWhileNavigating(t *testing.T) {
	cdptest.Browser(t) // skips without Chromium
	base, started := cdptest.ServeStalled(t)
	c, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A browser of its own: the test kills it.
	b, err := cdpconn.Launch(c, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer b.Close()
	p, err := b.NewPage(c, base+"/start.html")
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	// Settling waits a long time for a navigation: the kill must end it.
	svc := NewService(p, Config{Snapshotter: testSnapshotter, NavigationTimeout: 10 * time.Minute, SettleTimeout: 10 * time.Minute, LoadGrace: 10 * time.Minute})
	defer svc.Close()
	if _, err := svc.Snapshot(c, false); err != nil {
		t.Fatal(err)
	}
	go func() {
		select {
		case <-started:
			_ = b.Process().Kill()
		case <-c.Done():
		}
	}()
	res := svc.Do(c, Action{Kind: "navigate", URL: base + "/stalled.html"})
	if c.Err() != nil {
		t.Fatalf("the action did not end after the browser was killed: %+v", res)
	}
	mustCode(t, res, NotAttached)
}
