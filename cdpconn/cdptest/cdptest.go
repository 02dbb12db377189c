// Package cdptest gives tests a real headless Chromium. It gives:
//   - one shared browser per test binary, started on first use and
//     stopped by Main.
//   - HTTP servers for fixture folders on two origins.
//   - the path of the shared corpus.
package cdptest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
)

var (
	mu      sync.Mutex
	shared  *cdpconn.Browser
	lastErr error
)

// Main runs the tests and then stops the shared browser. Call it from
// TestMain: func TestMain(m *testing.M) { cdptest.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}

// Close stops the shared browser, if one was started.
func Close() {
	mu.Lock()
	defer mu.Unlock()
	if shared != nil {
		_ = shared.Close()
		shared = nil
	}
}

// SkipShort skips a test that starts a browser or waits out a timeout
// when the quick lane (-short) runs.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping: -short runs no browser and no long wait (make test-short)")
	}
}

// Long skips a test of the long lane unless $DOMSCOPE_LONG is set. The
// long lane holds the heaviest end-to-end cases (the whole corpus, the
// 50,000-element page): `make test-long` runs them, and CI runs them once
// after `make test`. Their names end in Long, so -run 'Long$' picks them.
func Long(t testing.TB) {
	t.Helper()
	SkipShort(t)
	if os.Getenv("DOMSCOPE_LONG") == "" {
		t.Skip("skipping: the long lane (make test-long, or DOMSCOPE_LONG=1)")
	}
}

// inCI reports whether tests run in CI, where a missing browser is a failure.
func inCI() bool { return os.Getenv("CI") != "" }

// Browser returns the shared headless Chromium of this test binary,
// launching it on first use. It skips the test under -short (the quick
// lane). It also skips it when no Chromium is found and CI is unset. In
// CI a missing Chromium fails it.
func Browser(t testing.TB) *cdpconn.Browser {
	t.Helper()
	SkipShort(t)
	mu.Lock()
	defer mu.Unlock()
	if shared != nil {
		if _, err := shared.Targets(context.Background()); err == nil {
			return shared
		}
		// The browser died; a test may have crashed it. Start another.
		_ = shared.Close()
		shared = nil
	}
	if _, err := cdpconn.FindChrome(); err != nil {
		if inCI() {
			t.Fatalf("CI is set and no Chromium was found: %v", err)
		}
		t.Skipf("skipping: no Chromium found (%v); install chromium or set $CHROME_PATH", err)
	}
	if lastErr != nil {
		t.Fatalf("the shared Chromium failed to start earlier: %v", lastErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		lastErr = err
		t.Fatalf("launching Chromium: %v", err)
	}
	shared = b
	return b
}

// Page opens a new tab of the shared browser at url. It detaches, closing
// the tab, when the test ends.
func Page(t testing.TB, url string) *cdpconn.Page {
	t.Helper()
	b := Browser(t)
	// A hang guard: a big page loads slowly on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p, err := b.OpenPage(ctx, url)
	if err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	t.Cleanup(func() { _ = p.Detach() })
	// OpenPage answers once the document is parsed and its load grace
	// is over. A test compares reads of a page at rest, so it also waits
	// for the load event (wikipedia-2's takes 10 s here), 30 s at most.
	_ = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": loaded, "awaitPromise": true}, nil)
	return p
}

// loaded resolves at the page's load event, or after 30 s.
const loaded = `new Promise((r) => {
  if (document.readyState === "complete") return r();
  addEventListener("load", () => r(), {once: true});
  setTimeout(r, 30000);
})`

// Serve serves dir over HTTP twice, on 127.0.0.1 and on localhost. The
// second is another origin and site. So an iframe from one in the other
// is cross-origin and, with site isolation, out of process. Both stop
// when the test ends.
func Serve(t testing.TB, dir string) (url127, urlLocalhost string) {
	t.Helper()
	h := http.FileServer(http.Dir(dir))
	a := httptest.NewServer(noCache(h))
	t.Cleanup(a.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listening: %v", err)
	}
	b := httptest.NewUnstartedServer(noCache(h))
	b.Listener.Close()
	b.Listener = ln
	b.Start()
	t.Cleanup(b.Close)
	return a.URL, fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port)
}

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// Shared returns the path of the shared folder: ../shared next to the
// module, with the page corpus and benchmark scripts. It takes
// $DOMSCOPE_SHARED, or walks up from the working directory to go.mod. It
// skips the test when the folder is absent. If CI is set, it fails it
// instead.
func Shared(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("DOMSCOPE_SHARED"); p != "" {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		t.Fatalf("$DOMSCOPE_SHARED=%s is not a folder", p)
	}
	if p := findShared(); p != "" {
		return p
	}
	if inCI() {
		t.Fatalf("CI is set and the shared corpus folder (../shared) is absent; set $DOMSCOPE_SHARED")
	}
	t.Skip("skipping: the shared corpus (../shared next to the module, or $DOMSCOPE_SHARED) is absent")
	return ""
}

// findShared walks up from the working directory to the module root. It
// returns its sibling "shared" folder, or "".
func findShared() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(filepath.Dir(dir), "shared")
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return p
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// ServeStalled serves a site whose /stalled.html never finishes loading:
// it parses, but its image (/hold.png) never comes, so its load event
// never fires. Any other path is a start page linking to it. held is
// closed when the image is first asked for. The held requests end
// before the server stops, when the test ends.
func ServeStalled(t testing.TB) (base string, held <-chan struct{}) {
	t.Helper()
	done, asked := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/hold.png":
			once.Do(func() { close(asked) })
			select {
			case <-r.Context().Done():
			case <-done:
			}
		case "/stalled.html":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<!doctype html><title>stalled</title><button id="go">Parsed already</button><a id="down" href="#below">down</a><img src="/hold.png" alt="never"><p id="below">below</p>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<!doctype html><title>start</title><a id="to" href="/stalled.html">on</a>`))
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // runs first: frees the held requests
	return srv.URL, asked
}
