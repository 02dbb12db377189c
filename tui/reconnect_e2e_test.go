package tui

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// killedUnderUI runs the UI on keep.html in a Chromium of the test's own.
// It kills that Chromium and waits until the UI says the page is lost.
func killedUnderUI(t *testing.T) (base string, port int, endpoint string, tm *term) {
	t.Helper()
	base = visitServer(t)
	port = freePort(t)
	endpoint = fmt.Sprintf("http://127.0.0.1:%d", port)
	first := startChromium(t, port, base+"/keep.html")
	tm = startDomscope(t, endpoint, "keep.html")
	tm.waitFor("the page in the first browser", 60*time.Second, func(s string) bool {
		return strings.Contains(s, "● live") && strings.Contains(s, `"Visit 1"`)
	})
	first.kill()
	tm.waitFor("the lost connection", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "reconnecting") || strings.Contains(s, "page lost")
	})
	return base, port, endpoint, tm
}

// Chromium is killed under the UI and started again on the same port. The
// UI reconnects by itself and finds the page at the same URL in the new
// browser. It snapshots it and acts on it; T lists the new browser's tabs.
func TestBrowserRestartFullProgram(t *testing.T) {
	base, port, endpoint, tm := killedUnderUI(t)
	startChromium(t, port, base+"/keep.html")
	cdptest.TabAt(t, endpoint, base+"/other.html")
	s := tm.waitFor("the page in the new browser", 90*time.Second, func(s string) bool {
		return strings.Contains(s, "● live") && strings.Contains(s, `"Visit 2"`)
	})
	if strings.Contains(s, `"Visit 1"`) {
		t.Errorf("the first browser's page is still shown:\n%s", s)
	}

	// actions go to the new browser
	tm.keys("c")
	s = tm.waitFor("the click", 30*time.Second, func(s string) bool { return strings.Contains(acted(s), "last action: click") })
	if !strings.Contains(s, "→ ok") {
		t.Fatalf("the click after reconnecting failed:\n%s", s)
	}
	if got := evalIn(t, endpoint, "/keep.html", "String(window.clicked)"); got != "1" {
		t.Errorf("the new browser's page saw window.clicked = %s, want 1", got)
	}

	// T lists the new browser's tabs
	tm.keys("T")
	s = tm.waitText("Tabs · pick one", 15*time.Second)
	if !strings.Contains(s, "Other tab") {
		t.Fatalf("the tab picker lacks the new browser's other tab:\n%s", s)
	}
	if strings.Contains(s, "cannot list tabs") {
		t.Fatalf("listing tabs failed:\n%s", s)
	}
	tm.keys("Escape")
	tm.quit()
}

// The new browser has no tab at the old URL. The tab picker opens on the
// new connection by itself, and picking a tab attaches to it.
func TestBrowserRestartWithoutTheTabFullProgram(t *testing.T) {
	base, port, _, tm := killedUnderUI(t)
	startChromium(t, port, base+"/other.html")
	s := tm.waitFor("the tab picker", 90*time.Second, func(s string) bool {
		return strings.Contains(s, "Tabs · pick one") && strings.Contains(s, "Other tab")
	})
	for _, l := range strings.Split(s, "\n")[1:] { // the header still names the lost page
		if strings.Contains(l, "keep.html") {
			t.Errorf("the picker lists the lost tab:\n%s", s)
		}
	}
	for i := 0; i < 10; i++ {
		cur := lineWith(tm.screen(), "▶")
		if strings.Contains(cur, "Other tab") {
			break
		}
		tm.keys("Down")
		tm.waitFor("the cursor to move", 10*time.Second, func(s string) bool { return lineWith(s, "▶") != cur })
	}
	tm.keys("Enter")
	tm.waitFor("the other tab attached", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Other tab”") && strings.Contains(s, "● live") && strings.Contains(s, `"Other button"`)
	})
	tm.quit()
}

// visitServer serves keep.html and other.html. keep.html says how many
// times it was loaded, so the page of the second browser differs from the
// first's.
func visitServer(t *testing.T) string {
	var visits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/keep.html":
			n := visits.Add(1)
			fmt.Fprintf(w, `<!doctype html><html><head><title>Keep</title></head><body><main><h1>Visit %d</h1>
<button onclick="window.clicked = (window.clicked || 0) + 1">Press %d</button></main></body></html>`, n, n)
		case "/other.html":
			io.WriteString(w, `<!doctype html><html><head><title>Other tab</title></head><body><button>Other button</button></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// chromium is a Chromium this test started, in a process group of its own.
type chromium struct {
	t   *testing.T
	cmd *exec.Cmd
}

// startChromium runs a headless Chromium with a fresh profile, its
// DevTools port on port, showing url. It waits until the port answers.
func startChromium(t *testing.T, port int, url string) *chromium {
	t.Helper()
	cdptest.SkipShort(t)
	path, err := cdpconn.FindChrome()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("skipping: %v", err)
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		fmt.Sprintf("--remote-debugging-port=%d", port), "--user-data-dir="+t.TempDir(), url)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &chromium{t: t, cmd: cmd}
	t.Cleanup(c.kill)
	deadline := time.Now().Add(hangGuard)
	for time.Now().Before(deadline) {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/list", port))
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), url) {
				return c
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Chromium on port %d did not show %s within %s", port, url, hangGuard)
	return nil
}

// kill ends the browser and its helper processes at once, like a crash.
func (c *chromium) kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	_ = c.cmd.Wait()
}

// startDomscope builds the domscope command and runs it under tmux. It
// attaches to the tab at target of the browser at endpoint.
func startDomscope(t *testing.T, endpoint, target string) *term {
	t.Helper()
	needTmux(t)
	bin := filepath.Join(t.TempDir(), "domscope")
	if out, err := exec.Command("go", "build", "-o", bin, "domscope").CombinedOutput(); err != nil {
		t.Fatalf("building domscope: %v\n%s", err, out)
	}
	cmd := "env TERM=xterm-256color " + shellQuote(bin) + " --endpoint " + shellQuote(endpoint) + " --target " + shellQuote(target) +
		` --theme dark --no-highlight; rc=$?; if [ $rc = 0 ]; then echo "DOMSCOPE-CHILD-EXIT err: <nil>"; else echo "DOMSCOPE-CHILD-EXIT err: exit $rc"; fi; sleep 60`
	return startTermCmd(t, cmd, 140, 44)
}

// evalIn evaluates expr in the tab at …suffix of the browser at endpoint.
// It uses a connection of the test's own.
func evalIn(t *testing.T, endpoint, suffix, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := cdpconn.Connect(ctx, endpoint, false)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	return evalInTab(ctx, t, b, suffix, expr)
}

// evalInTab evaluates expr in b's tab whose URL ends with suffix.
func evalInTab(ctx context.Context, t *testing.T, b *cdpconn.Browser, suffix, expr string) string {
	t.Helper()
	p := tabBySuffix(ctx, t, b, suffix)
	defer p.Detach()
	var res struct {
		Result struct{ Value string } `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		t.Fatal(err)
	}
	return res.Result.Value
}

// tabBySuffix attaches a second connection to b's tab whose URL ends with
// suffix. The caller detaches it.
func tabBySuffix(ctx context.Context, t *testing.T, b *cdpconn.Browser, suffix string) *cdpconn.Page {
	t.Helper()
	ts, err := b.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range ts {
		if strings.HasSuffix(tg.URL, suffix) {
			p, err := b.AttachPage(ctx, tg.ID)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("no tab at …%s", suffix)
	return nil
}
