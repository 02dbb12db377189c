package live_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// slowLoads waits for NavigationTimeout: the tests must not meet it.
var slowLoads = Config{NavigationTimeout: 10 * time.Minute, SettleTimeout: 10 * time.Minute}

// TestFirstViewOfAParsedTab: a tab whose document is parsed but whose
// load never ends ("interactive") gets its first view at once. Before,
// it waited for NavigationTimeout (wikipedia-2 sat 10 s like this).
func TestFirstViewOfAParsedTab(t *testing.T) {
	cdptest.Browser(t) // skips without Chromium
	base, _ := cdptest.ServeStalled(t)
	p := cdptest.Page(t, base+"/start.html")
	evalJS(t, p, `location.href = "/stalled.html"`)
	// A read while the tab changes documents fails: WaitFor polls on.
	cdptest.WaitFor(t, p, `document.readyState + " " + location.pathname === "interactive /stalled.html"`)
	cfg := slowLoads
	cfg.Snapshotter = testSnapshotter
	svc := NewService(p, cfg)
	defer svc.Close()
	c := ctx(t)
	s, err := svc.Snapshot(c, false)
	if err != nil {
		t.Fatalf("first view: %v", err)
	}
	if byAttrID(t, s, "go").Name != "Parsed already" {
		t.Errorf("the first view misses the parsed page's button")
	}
	// Back across a fragment while the page still loads: Chrome starts a
	// load of the same document, which has nothing more to parse.
	a := Action{Kind: "click", ID: byAttrID(t, s, "down").ID}
	mustOK(t, svc.Do(c, a))
	mustOK(t, svc.Do(c, Action{Kind: "back"}))
	notHeld(t, c)
	if u := evalString(t, p, `location.hash + " " + document.readyState`); u != " interactive" {
		t.Errorf("after back: hash and state %q, want the stalled page without its fragment", u)
	}
}

// TestNavigationToAStalledPage: an action that loads a page whose image
// never comes answers once the document is parsed and quiet, with the
// new page's view, not after NavigationTimeout.
func TestNavigationToAStalledPage(t *testing.T) {
	cdptest.Browser(t) // skips without Chromium
	base, _ := cdptest.ServeStalled(t)
	svc, _ := openService(t, base+"/start.html", slowLoads)
	defer svc.Close()
	for _, a := range []Action{
		{Kind: "navigate", URL: base + "/stalled.html"},
		{Kind: "navigate", URL: base + "/start.html"},
		{Kind: "click"}, // the link back to the stalled page
	} {
		if a.Kind == "click" {
			a.ID = byAttrID(t, snap(t, svc), "to").ID
		}
		c := ctx(t)
		res := svc.Do(c, a)
		notHeld(t, c)
		mustOK(t, res)
		if a.Kind == "navigate" && !strings.HasSuffix(a.URL, "stalled.html") {
			continue
		}
		if s := snap(t, svc); s.Title != "stalled" {
			t.Fatalf("%s: the view after it shows %q", a.Kind, s.Title)
		}
	}
}

// notHeld fails when the hang guard, not the page, ended the wait: the
// actions above would then have waited for a load that never ends.
func notHeld(t *testing.T, c context.Context) {
	t.Helper()
	if c.Err() != nil {
		t.Fatalf("the wait for the load event ran into the hang guard")
	}
}

// TestHistoryPushDuringANavigation: a click starts loading a slow page,
// and the old page pushes a history entry before the new one commits.
// The action must answer with the new document. The tracker no longer
// credits the old page's parse to that push. Even when it did, Chrome
// held settling's idle probe until the commit, so this passes either
// way: it guards the outcome, not the counting.
func TestHistoryPushDuringANavigation(t *testing.T) {
	cdptest.Browser(t) // skips without Chromium
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/slow.html" {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			_, _ = w.Write([]byte(`<!doctype html><title>slowpage</title><p>arrived</p>`))
			return
		}
		_, _ = w.Write([]byte(`<!doctype html><title>start</title>
<button id="go" onclick="location.href='/slow.html'; setTimeout(() => history.pushState({}, '', '#pushed'), 50)">go</button>`))
	}))
	defer srv.Close()
	cfg := slowLoads
	cfg.CallTimeout = 2 * time.Second
	svc, _ := openService(t, srv.URL+"/start.html", cfg)
	defer svc.Close()
	// The old page was parsed more than LoadGrace ago, and the new one
	// arrives after CallTimeout.
	time.Sleep(LoadGrace)
	timer := time.AfterFunc(3*cfg.CallTimeout, func() { close(release) })
	defer timer.Stop()
	c := ctx(t)
	res := do(t, svc, "go", Action{Kind: "click"})
	notHeld(t, c)
	mustOK(t, res)
	if s := snap(t, svc); s.Title != "slowpage" {
		t.Errorf("after the click the view shows %q, want the new page", s.Title)
	}
}

// TestSnapshotOfAReloadingPage: a page that reloads itself every 100 ms
// navigates under most captures. Each snapshot reads the new document
// instead of failing with a lost context.
func TestSnapshotOfAReloadingPage(t *testing.T) {
	cdptest.SkipShort(t)
	page := `<!doctype html><title>Reloads</title><p id="n"></p><script>
const n = Number(sessionStorage.getItem("loads") || 0) + 1;
sessionStorage.setItem("loads", n);
document.getElementById("n").textContent = "load " + n;
for (let i = 0; i < 300; i++) document.body.append(Object.assign(document.createElement("button"), {textContent: "b" + i}));
setTimeout(() => location.reload(), 100);
</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(page))
	}))
	defer srv.Close()
	svc, _ := openService(t, srv.URL+"/", Config{})
	for i := 0; i < 20; i++ {
		s, err := svc.Snapshot(ctx(t), i%2 == 0)
		if err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		// A capture may meet the next load just committed, still empty.
		if !strings.HasPrefix(s.URL, srv.URL) || s.Title != "Reloads" && s.Title != "" {
			t.Fatalf("snapshot %d is of %q %q", i, s.URL, s.Title)
		}
	}
}
