package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// TestMCPHTTPMakesAToken: `mcp --http` on loopback without --token makes
// one up and prints the URL that carries it, as Jupyter does. A request
// without it gets 401, the printed URL 200. --no-token needs no --token.
func TestMCPHTTPMakesAToken(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	a, _ := json.Marshal([]string{"mcp", "--endpoint", b.WebSocketURL(), "--url", base + "/app.html", "--http", "127.0.0.1:0"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(a))
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	re := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+/mcp)\?token=(\S+)`)
	var m []string
	for deadline := time.Now().Add(2 * time.Minute); m == nil; time.Sleep(50 * time.Millisecond) {
		if m = re.FindStringSubmatch(stderr.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("no URL with a token printed:\n%s", stderr.String())
		}
	}
	post := func(url string) int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		return res.StatusCode
	}
	if got := post(m[1]); got != 401 {
		t.Errorf("without the token: %d, want 401", got)
	}
	if got := post(m[0][len("serving "):]); got != 200 {
		t.Errorf("with the printed URL: %d, want 200", got)
	}
	if _, errOut, code := runCLI(t, "", "mcp", "--http", "127.0.0.1:0", "--token", "x", "--no-token"); code != 2 || !strings.Contains(errOut, "--no-token") {
		t.Errorf("--token with --no-token: exit %d, %s", code, errOut)
	}
}
