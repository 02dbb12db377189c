package live_test

import (
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// waitEvent returns the first event of kind within d (false if none).
func waitEvent(svc *Service, kind string, d time.Duration) bool {
	deadline := time.After(d)
	for {
		select {
		case e := <-svc.Events():
			if e.Kind == kind {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// TestFollowReportsOthersChanges: another client, over its own CDP
// connection, clicks in the page while the service is attached. The
// service says "page-changed" once the page is quiet. A snapshot then
// shows the change. Its own actions and a paused service say nothing.
func TestFollowReportsOthersChanges(t *testing.T) {
	svc, p := openService(t, smallPageT(t), Config{})
	s := snap(t, svc)
	op := otherClient(t, p.TargetID())
	drain(svc)

	// Our own action: its changes are in its result, not reported.
	mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: byAttrID(t, s, "inc").ID}))
	if waitEvent(svc, "page-changed", 800*time.Millisecond) {
		t.Errorf("the service reported its own action as a change by others")
	}

	// The other client clicks: a real mouse click at the button's centre.
	click := func() {
		x := domtest.EvalJS(t, op, `(() => { const r = document.getElementById('inc').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`).([]any)
		for _, typ := range []string{"mousePressed", "mouseReleased"} {
			if err := op.Call(ctx(t), "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x[0], "y": x[1], "button": "left", "clickCount": 1}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := nodeText(snap(t, svc).Root)
	click()
	if !waitEvent(svc, "page-changed", 5*time.Second) {
		t.Fatalf("no page-changed after another client's click")
	}
	after, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if nodeText(after.Root) == before {
		t.Errorf("the snapshot after page-changed shows no change")
	}

	// Paused: nothing; resumed: the change made meanwhile is reported.
	svc.SetFollow(false)
	drain(svc)
	click()
	if waitEvent(svc, "page-changed", 800*time.Millisecond) {
		t.Errorf("page-changed while paused")
	}
	svc.SetFollow(true)
	if !waitEvent(svc, "page-changed", 3*time.Second) {
		t.Errorf("no page-changed on resuming after a change")
	}
}

// otherClient attaches to the tab over a CDP connection of its own, as an
// agent driving the same browser would.
func otherClient(tb testing.TB, targetID string) *cdpconn.Page {
	tb.Helper()
	other, err := cdpconn.Connect(ctx(tb), cdptest.Browser(tb).WebSocketURL(), false)
	if err != nil {
		tb.Fatalf("a second connection: %v", err)
	}
	tb.Cleanup(func() { _ = other.Close() })
	op, err := other.AttachPage(ctx(tb), targetID)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = op.Detach() })
	return op
}
