package live_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// The helpers shared with the other engine packages' tests.
var (
	actionPages = domtest.ActionPages
	ctx         = domtest.Ctx
	evalJS      = domtest.EvalJS
	evalString  = domtest.EvalString
	walk        = domtest.Walk
	snap        = domtest.Snap
)

// hangGuard bounds a wait for something that comes at once as a rule: it
// only ends a hung test (see domtest.HangGuard).
const hangGuard = domtest.HangGuard

// testSnapshotter is the capture the tests use; nil is the engine's own.
var testSnapshotter func(ctx context.Context, p Page, prev *Snapshot) (*Snapshot, error)

// openService opens url in a new tab of the shared browser and starts a
// service on it with a first snapshot.
func openService(t testing.TB, url string, cfg Config) (*Service, *cdpconn.Page) {
	t.Helper()
	if cfg.Snapshotter == nil {
		cfg.Snapshotter = testSnapshotter
	}
	return domtest.OpenService(t, url, cfg)
}

// byAttrID finds the (first) node whose id attribute is id.
func byAttrID(t testing.TB, s *Snapshot, id string) *VirtualNode {
	t.Helper()
	if n := findAttr(s, "id", id); n != nil {
		return n
	}
	t.Fatalf("snapshot #%d has no element with id=%q", s.Seq, id)
	return nil
}

func findAttr(s *Snapshot, attr, val string) *VirtualNode {
	var found *VirtualNode
	walk(s.Root, func(n *VirtualNode) bool {
		if found == nil && n.NodeType == ElementNode && n.Attrs[attr] == val {
			found = n
		}
		return found == nil
	})
	return found
}

// do performs a on the node with attribute id attrID (if given). It checks
// the rule every action obeys: the snapshot it started from is invalidated.
func do(t *testing.T, svc *Service, attrID string, a Action) ActionResult {
	t.Helper()
	before := snap(t, svc)
	if attrID != "" {
		a.ID = byAttrID(t, before, attrID).ID
	}
	res := svc.Do(ctx(t), a)
	if !res.SnapshotInvalidated {
		t.Errorf("%s: result does not say the snapshot was invalidated", a.Kind)
	}
	if cur := svc.Current(); cur == before {
		t.Errorf("%s: the snapshot from before the action is still current", a.Kind)
	}
	return res
}

func mustOK(t *testing.T, res ActionResult) {
	t.Helper()
	if !res.Success {
		t.Fatalf("%s %s failed: %v", res.Action, res.ID, res.Error)
	}
}

func mustCode(t *testing.T, res ActionResult, code Code) {
	t.Helper()
	if res.Success || res.Error == nil || res.Error.Code != code {
		t.Fatalf("%s %s: want %s, got success=%v err=%v", res.Action, res.ID, code, res.Success, res.Error)
	}
	if res.Error.Message == "" {
		t.Errorf("%s: error without a message", code)
	}
}

func TestUnknownIDIsNodeNotFound(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", Config{})
	res := do(t, svc, "", Action{Kind: "click", ID: "node_999999"})
	mustCode(t, res, NodeNotFound)
	if svc.Current() != nil {
		t.Errorf("a failed action left a current snapshot")
	}
}

func TestRemovedNodeIsStale(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	s := snap(t, svc)
	n := byAttrID(t, s, "remove")
	evalJS(t, p, "document.getElementById('remove').remove()")
	res := svc.Do(ctx(t), Action{Kind: "click", ID: n.ID})
	mustCode(t, res, NodeStale)
	if !res.SnapshotInvalidated || svc.Current() != nil {
		t.Errorf("stale click did not invalidate the snapshot")
	}
	// Typing into it is stale too, and no node was clicked.
	s = snap(t, svc)
	res = svc.Do(ctx(t), Action{Kind: "type", ID: n.ID, Text: "x"})
	if res.Success {
		t.Fatalf("typing into a removed node succeeded")
	}
	if c := res.Error.Code; c != NodeStale && c != NodeNotFound {
		t.Fatalf("typing into a removed node: %v", res.Error)
	}
	_ = s
}

func TestOccludedByFixedBanner(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	res := do(t, svc, "under", Action{Kind: "click"})
	mustCode(t, res, Occluded)
	if !strings.Contains(res.Error.Message, "banner") {
		t.Errorf("OCCLUDED does not name the banner: %s", res.Error.Message)
	}
	if v := evalJS(t, p, "window.under === true"); v != false {
		t.Fatalf("the occluded button was clicked")
	}
	// force clicks at the point anyway: the banner gets it, not the button.
	res = do(t, svc, "under", Action{Kind: "click", Force: true})
	mustOK(t, res)
	// Accepting the banner removes it; then the button is clickable.
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "under", Action{Kind: "click"}))
	if v := evalJS(t, p, "window.under === true"); v != true {
		t.Fatalf("button under the removed banner was not clicked")
	}
}

func TestAlertDoesNotHang(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"})) // the banner covers the buttons
	// A click that waited on the blocked input command would end in
	// TIMEOUT; it succeeds and names the alert instead.
	res := do(t, svc, "alert", Action{Kind: "click"})
	mustOK(t, res)
	if res.Dialog == nil || res.Dialog.Type != "alert" || res.Dialog.Message != "hello from alert" {
		t.Fatalf("result does not report the alert: %+v", res.Dialog)
	}
	// Snapshots and other actions say a dialog blocks the page.
	if _, err := svc.Snapshot(ctx(t), true); CodeOf(err) != DialogOpen || !strings.Contains(err.Error(), "hello from alert") {
		t.Fatalf("snapshot with an alert open: %v", err)
	}
	res = svc.Do(ctx(t), Action{Kind: "key", Key: "Enter"})
	if res.Success || res.Dialog == nil {
		t.Fatalf("a key press with an alert open should fail and name the dialog: %+v", res)
	}
	if e := res.Error; e.Code != DialogOpen || !e.Recoverable || !strings.Contains(e.Message, "alert dialog") || !strings.Contains(e.Message, `"hello from alert"`) {
		t.Fatalf("a key press with an alert open: want a recoverable DIALOG_OPEN naming the alert, got %+v", e)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true}))
	if svc.Dialog() != nil {
		t.Fatalf("dialog still open after accepting")
	}
	if v := evalJS(t, p, "window.afterAlert === true"); v != true {
		t.Fatalf("the click handler did not finish after the alert was accepted")
	}
}

func TestConfirmAndPrompt(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))

	res := do(t, svc, "confirm", Action{Kind: "click"})
	if res.Dialog == nil || res.Dialog.Type != "confirm" {
		t.Fatalf("no confirm reported: %+v", res)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: false}))
	if v := evalJS(t, p, "window.confirmed"); v != false {
		t.Fatalf("dismissed confirm returned %v", v)
	}

	res = do(t, svc, "prompt", Action{Kind: "click"})
	if res.Dialog == nil || res.Dialog.Type != "prompt" || res.Dialog.DefaultPrompt != "x" {
		t.Fatalf("no prompt reported: %+v", res.Dialog)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true, Text: "Ada"}))
	if v := evalJS(t, p, "window.prompted"); v != "Ada" {
		t.Fatalf("prompt returned %v", v)
	}
	// No dialog open: a dialog action is a clear error.
	mustCode(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true}), ValidationError)
}

func TestBeforeUnloadDoesNotHang(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/dialogs.html", Config{})
	mustOK(t, do(t, svc, "leave", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "dirty", Action{Kind: "type", Text: "unsaved"}))
	res := do(t, svc, "", Action{Kind: "navigate", URL: base + "/page2.html"})
	if res.Dialog == nil || res.Dialog.Type != "beforeunload" {
		t.Fatalf("navigating away did not report beforeunload: %+v", res)
	}
	res = svc.Do(ctx(t), Action{Kind: "dialog", Accept: true})
	mustOK(t, res)
	if !strings.HasSuffix(evalString(t, p, "location.href"), "/page2.html") {
		t.Fatalf("did not leave after accepting beforeunload")
	}
}

func TestMaxAgeRebuildsOnRead(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	// A clock the test moves, so a slow capture on a busy machine cannot
	// age the snapshot on its own.
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	svc, _ := openService(t, base+"/basic.html", Config{MaxAge: 30 * time.Second, Now: clock})
	a := snap(t, svc)
	mu.Lock()
	now = a.Taken.Add(29 * time.Second)
	mu.Unlock()
	if b := snap(t, svc); b != a {
		t.Fatalf("a fresh snapshot was rebuilt")
	}
	mu.Lock()
	now = a.Taken.Add(31 * time.Second)
	mu.Unlock()
	if b := snap(t, svc); b == a || b.Seq <= a.Seq {
		t.Fatalf("an old snapshot was not rebuilt")
	}
}

func TestNavigationInvalidates(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	s := snap(t, svc)
	evalJS(t, p, "location.href = 'page2.html'")
	deadline := time.Now().Add(hangGuard)
	for svc.Current() == s && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if svc.Current() == s {
		t.Fatalf("a navigation the service did not start left the snapshot current")
	}
	for !strings.HasSuffix(evalString(t, p, "location.href"), "/page2.html") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// And clicking a link reports the navigation.
	mustOK(t, do(t, svc, "back", Action{Kind: "click"}))
	res := do(t, svc, "link", Action{Kind: "click"})
	mustOK(t, res)
	if !res.Changes.Navigated || !strings.HasSuffix(res.Changes.NewURL, "/page2.html") {
		t.Fatalf("link click changes: %+v", res.Changes)
	}
	res = do(t, svc, "", Action{Kind: "back"})
	mustOK(t, res)
	if !strings.HasSuffix(evalString(t, p, "location.href"), "/basic.html") || !res.Changes.Navigated {
		t.Fatalf("back: %+v at %s", res.Changes, evalString(t, p, "location.href"))
	}
	mustOK(t, do(t, svc, "", Action{Kind: "forward"}))
	mustOK(t, do(t, svc, "", Action{Kind: "reload"}))
	if !strings.HasSuffix(evalString(t, p, "location.href"), "/page2.html") {
		t.Fatalf("forward+reload ended at %s", evalString(t, p, "location.href"))
	}
	mustCode(t, do(t, svc, "", Action{Kind: "forward"}), ValidationError)
}

// TestBrowserKilledIsNotAttached runs its own browser: it kills it.
func TestBrowserKilledIsNotAttached(t *testing.T) {
	cdptest.Browser(t) // skips without Chromium
	base, _ := cdptest.Serve(t, actionPages)
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(c, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer b.Close()
	p, err := b.NewPage(c, base+"/basic.html")
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	svc := NewService(p, Config{Snapshotter: testSnapshotter})
	defer svc.Close()
	s, err := svc.Snapshot(c, false)
	if err != nil {
		t.Fatal(err)
	}
	id := byAttrID(t, s, "inc").ID
	killBrowser(t, p)
	deadline := time.Now().Add(hangGuard)
	for svc.State() == Connected && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	res := svc.Do(c, Action{Kind: "click", ID: id})
	mustCode(t, res, NotAttached)
	if svc.Current() != nil {
		t.Errorf("snapshot still cached after the browser died")
	}
	if _, err := svc.Snapshot(c, true); CodeOf(err) != NotAttached {
		t.Fatalf("snapshot after the browser died: %v", err)
	}
	if svc.State() != Disconnected {
		t.Fatalf("state %s", svc.State())
	}
}

// killBrowser ends the browser abruptly: Browser.crash takes the whole
// browser process down, like a crash or a kill would.
func killBrowser(t *testing.T, p Page) {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = p.Call(c, "Browser.crash", nil, nil) // it never answers
}

func TestReconnectAfterTabClosed(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	b := cdptest.Browser(t)
	p := cdptest.Page(t, base+"/basic.html")
	reconnects := 0
	svc := NewService(p, Config{Snapshotter: testSnapshotter, Reconnect: func(c context.Context, _ TargetInfo) (Page, error) {
		reconnects++
		np, err := b.OpenPage(c, base+"/page2.html")
		if err == nil {
			t.Cleanup(func() { _ = np.Detach() })
		}
		return np, err
	}})
	defer svc.Close()
	if _, err := svc.Snapshot(ctx(t), false); err != nil {
		t.Fatal(err)
	}
	_ = p.Detach() // closes the tab this test opened
	deadline := time.Now().Add(hangGuard)
	sawReconnecting := false
	for time.Now().Before(deadline) {
		st := svc.State()
		if st == Reconnecting {
			sawReconnecting = true
			if res := svc.Do(ctx(t), Action{Kind: "key", Key: "a"}); res.Error == nil || res.Error.Code != NotAttached {
				t.Fatalf("action while reconnecting: %+v", res)
			}
		}
		if st == Connected && reconnects > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if svc.State() != Connected || reconnects == 0 {
		t.Fatalf("state %s after %d reconnects (saw reconnecting: %v)", svc.State(), reconnects, sawReconnecting)
	}
	s, err := svc.Snapshot(ctx(t), false)
	if err != nil || !strings.HasSuffix(s.URL, "/page2.html") {
		t.Fatalf("snapshot after reconnect: %v", err)
	}
}

// TestConcurrentUse hammers one service from several goroutines (as the
// TUI's commands do); run with -race.
func TestConcurrentUse(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	id := byAttrID(t, snap(t, svc), "inc").ID
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range svc.Events() {
		}
	}()
	errs := make(chan error, 40)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 5; i++ {
				if res := svc.Do(ctx(t), Action{Kind: "click", ID: id}); !res.Success {
					errs <- res.Error
					continue
				}
				if _, err := svc.Snapshot(ctx(t), i%2 == 0); err != nil {
					errs <- err
					continue
				}
				_ = svc.Current()
				_ = svc.State()
				errs <- nil
			}
		}()
	}
	for i := 0; i < 20; i++ {
		if err := <-errs; err != nil {
			t.Errorf("concurrent use: %v", err)
		}
	}
	if v := evalJS(t, p, "window.clicks"); v != float64(20) {
		t.Fatalf("clicks = %v, want 20", v)
	}
	_ = svc.Close()
	<-done // Close ends Events
}

// TestDialogFromTimerDoesNotHang: an alert the page opens on its own, at
// any moment, never makes a snapshot or an action wait for the timeout.
func TestDialogFromTimerDoesNotHang(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "later", Action{Kind: "click"}))
	// The alert comes 250 ms after the click; the bound is a hang guard.
	deadline := time.Now().Add(hangGuard)
	for svc.Dialog() == nil && time.Now().Before(deadline) {
		// A snapshot the dialog stops says so; it never waits for the
		// service's bound (TIMEOUT), which is well inside this context's.
		c, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		_, err := svc.Snapshot(c, true)
		cancel()
		if CodeOf(err) == Timeout {
			t.Fatalf("a snapshot ran into its bound while a dialog opened: %v", err)
		}
	}
	if svc.Dialog() == nil {
		t.Fatalf("the delayed alert never showed up")
	}
	if _, err := svc.Snapshot(ctx(t), true); err == nil || !strings.Contains(err.Error(), "dialog") {
		t.Fatalf("snapshot with the alert open: %v", err)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true}))
	if v := evalJS(t, p, "window.laterDone"); v != true {
		t.Fatalf("page did not continue after the alert")
	}
	if _, err := svc.Snapshot(ctx(t), true); err != nil {
		t.Fatalf("snapshot after the alert: %v", err)
	}
}

// TestSettleOnBusyPage: a page whose DOM changes all the time (a clock)
// still settles after an action instead of running into the bound.
func TestSettleOnBusyPage(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/ticker.html", Config{SettleTimeout: 20 * time.Second})
	time.Sleep(300 * time.Millisecond) // let the background rate show
	for i := 0; i < 3; i++ {
		res := do(t, svc, "go", Action{Kind: "click"})
		mustOK(t, res)
		t.Logf("click %d: %.0f ms", i, res.DurationMs)
		if res.Changes.Unsettled {
			t.Fatalf("click %d on a ticking page did not settle: %+v", i, res.Changes)
		}
		if !res.Changes.DomChanged {
			t.Fatalf("no DOM change reported")
		}
	}
	if v := evalJS(t, p, "window.went"); v != float64(3) {
		t.Fatalf("went = %v", v)
	}
}
