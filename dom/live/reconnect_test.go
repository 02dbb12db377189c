package live_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// reconnectService starts a service on a new tab at url. Its reconnect
// hook is a Redialer over a connection of its own to the shared browser.
func reconnectService(t *testing.T, url string, calls *[]TargetInfo) (*Service, *cdpconn.Page) {
	t.Helper()
	b := cdptest.Browser(t)
	rd := cdpconn.NewRedialer(b.WebSocketURL(), false, nil)
	t.Cleanup(func() { _ = rd.Close() })
	p := cdptest.Page(t, url)
	svc := NewService(p, Config{Snapshotter: testSnapshotter,
		Reconnect: func(c context.Context, lost TargetInfo) (Page, error) {
			*calls = append(*calls, lost)
			return rd.Reattach(c, lost)
		}})
	t.Cleanup(func() { _ = svc.Close() })
	if _, err := svc.Snapshot(ctx(t), false); err != nil {
		t.Fatal(err)
	}
	return svc, p
}

// nextState waits for the service's next connection state event.
func nextState(t *testing.T, svc *Service, want ConnState) Event {
	t.Helper()
	timeout := time.After(hangGuard)
	for {
		select {
		case ev, ok := <-svc.Events():
			if !ok {
				t.Fatal("events closed")
			}
			if ev.Kind == "state" && ev.State == want {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s state event; state is %s", want, svc.State())
		}
	}
}

// The tab is gone but another tab shows the same URL (a restarted browser
// reopened it): the service attaches to that one.
func TestReconnectFindsTheTabByURL(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	url := base + "/basic.html"
	var calls []TargetInfo
	svc, p := reconnectService(t, url, &calls)
	other := cdptest.Page(t, url)
	lostID := p.TargetID()
	_ = p.Detach() // closes the tab this test opened
	nextState(t, svc, Reconnecting)
	nextState(t, svc, Connected)
	if len(calls) == 0 || calls[0].ID != lostID || calls[0].URL != url {
		t.Fatalf("the hook was asked for %+v, want target %s at %s", calls, lostID, url)
	}
	s, err := svc.Snapshot(ctx(t), false)
	if err != nil {
		t.Fatal(err)
	}
	if s.TargetID != other.TargetID() || s.URL != url {
		t.Fatalf("snapshot of target %s at %s, want the other tab %s", s.TargetID, s.URL, other.TargetID())
	}
	mustOK(t, do(t, svc, "inc", Action{Kind: "click"}))
	if got := evalJS(t, other, "window.clicks"); got != float64(1) {
		t.Fatalf("the click after reconnecting did not reach the other tab: window.clicks = %v", got)
	}
}

// Neither the tab nor its URL is in the browser: after a short grace the
// service stops trying and says so with TARGET_NOT_FOUND.
func TestReconnectGivesUpWhenTheTabIsGone(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	var calls []TargetInfo
	svc, p := reconnectService(t, base+"/page2.html", &calls)
	_ = p.Detach()
	nextState(t, svc, Reconnecting)
	ev := nextState(t, svc, Disconnected)
	if CodeOf(ev.Err) != TargetNotFound {
		t.Fatalf("gave up with %v, want TARGET_NOT_FOUND", ev.Err)
	}
	if len(calls) != 3 {
		t.Errorf("%d reconnect attempts, want 3 (the grace for a browser restoring its tabs)", len(calls))
	}
	if _, err := svc.Snapshot(ctx(t), false); CodeOf(err) != NotAttached {
		t.Errorf("snapshot after giving up: %v", err)
	}
}

// Under load a restarted browser restores its tabs slowly: "no such tab"
// answers back off and are retried until ReconnectWithin, not given up
// after three one second apart.
func TestReconnectBacksOffOnNoSuchTab(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	url := base + "/basic.html"
	p := cdptest.Page(t, url)
	var mu sync.Mutex
	var at []time.Time
	svc := NewService(p, Config{Snapshotter: testSnapshotter, ReconnectWithin: 2 * time.Minute,
		Reconnect: func(c context.Context, lost TargetInfo) (Page, error) {
			mu.Lock()
			at = append(at, time.Now())
			n := len(at)
			mu.Unlock()
			if n <= 4 {
				return nil, Errorf(TargetNotFound, nil, "no tab %s yet", lost.ID)
			}
			return cdptest.Page(t, url), nil
		}})
	t.Cleanup(func() { _ = svc.Close() })
	if _, err := svc.Snapshot(ctx(t), false); err != nil {
		t.Fatal(err)
	}
	_ = p.Detach()
	nextState(t, svc, Reconnecting)
	// After three answers without the tab, a person is offered the
	// others at once, while the attempts go on.
	if ev := nextState(t, svc, Reconnecting); CodeOf(ev.Err) != TargetNotFound {
		t.Errorf("the second reconnecting state says %v, want %s", ev.Err, TargetNotFound)
	}
	mu.Lock()
	if len(at) < 3 || len(at) > 4 { // the fourth may have come meanwhile
		t.Errorf("the tabs were offered after %d attempts, want 3", len(at))
	}
	mu.Unlock()
	nextState(t, svc, Connected)
	mu.Lock()
	defer mu.Unlock()
	if len(at) != 5 {
		t.Fatalf("%d attempts, want 5", len(at))
	}
	// Sleeps are never shorter than asked: the waits double from 1 s.
	for i, min := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if gap := at[i+2].Sub(at[i+1]); gap < min {
			t.Errorf("wait %d after no such tab: %s, want at least %s", i+1, gap, min)
		}
	}
}
