package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
)

// holdingServer serves a page with an image that never comes. Chrome
// commits the page and waits for its load event for ever. started is
// closed when the image is asked for.
func holdingServer(t *testing.T) (url string, started <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{})
	done := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow.html":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<!doctype html><title>slow</title><p>loading</p><img src="/hold.png">`))
		case "/hold.png":
			once.Do(func() { close(ch) })
			select {
			case <-r.Context().Done():
			case <-done:
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL + "/slow.html", ch
}

// TestBrowserKilledWhileLoadingURL: the browser dies while the --url page
// loads. domscope says NOT_ATTACHED (exit 2) as soon as the connection
// drops. It does not wait for TIMEOUT once --timeout has passed. --timeout
// is 10 minutes and the hang guard 3. A wait for either fails the test by
// its outcome.
func TestBrowserKilledWhileLoadingURL(t *testing.T) {
	if _, err := cdpconn.FindChrome(); err != nil {
		t.Skipf("no Chromium: %v", err)
	}
	for _, cmd := range []string{"snapshot", "run"} {
		t.Run(cmd, func(t *testing.T) { killWhileLoading(t, cmd) })
	}
}

func killWhileLoading(t *testing.T, cmd string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A browser of its own: the test kills it.
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	url, started := holdingServer(t)
	args := []string{cmd, "--endpoint", b.WebSocketURL(), "--url", url, "--timeout", "10m"}
	if cmd == "run" {
		args = append(args, "-")
	}
	a, _ := json.Marshal(args)
	c := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(a))
	c.Stdin = strings.NewReader(`{"action":"snapshot"}`)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the page's image was never requested")
	}
	if err := b.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	err = c.Wait()
	if ctx.Err() != nil {
		t.Fatalf("domscope %s did not end after the browser was killed; stderr %q", cmd, errb.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	stderr := errb.String()
	if code != exitConnect || !strings.Contains(stderr, "NOT_ATTACHED") || strings.Contains(stderr, "TIMEOUT") {
		t.Fatalf("exit %d, stderr %q; want exit %d with NOT_ATTACHED\n%s", code, stderr, exitConnect, out.String())
	}
}
