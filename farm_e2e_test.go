package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestFarmEndpointWithURL: domscope reaches a browser farm that demands a
// token in its URL. The farm is a loopback proxy in front of real Chromium
// that starts a browser for each connection. domscope reaches it by its
// ws:// URL and by its http:// URL. --url opens the page in that
// connection's browser. The token never shows in the output or the
// errors, a wrong one included.
func TestFarmEndpointWithURL(t *testing.T) {
	f := cdptest.NewFarm(t, 3)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "farm.html"), []byte(`<title>farm page</title><button id=b onclick="this.textContent='pressed'">press me</button>`), 0o644)
	base, _ := cdptest.Serve(t, dir)
	wsEP := "ws://" + f.Addr + "/?token=" + f.Token
	httpEP := "http://" + f.Addr + "/?token=" + f.Token
	noToken := func(t *testing.T, out ...string) {
		t.Helper()
		for _, o := range out {
			if strings.Contains(o, f.Token) {
				t.Fatalf("the token shows in the output:\n%s", o)
			}
		}
	}
	for _, ep := range []string{wsEP, httpEP} {
		stdout, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ep, "--url", base+"/farm.html")
		noToken(t, stdout, stderr)
		if code != 0 || !strings.Contains(stdout, `button "press me"`) {
			t.Fatalf("snapshot over %s: exit %d, stderr %q\n%s", strings.SplitN(ep, ":", 2)[0], code, stderr, stdout)
		}
	}
	stdout, stderr, code := runCLI(t, `{"action":"click","target":{"css":"#b"}}`, "run", "--endpoint", wsEP, "--url", base+"/farm.html", "--snapshots", "text", "-")
	noToken(t, stdout, stderr)
	if code != 0 || !strings.Contains(stdout, `button "pressed"`) {
		t.Fatalf("run over the farm: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	if f.Connections() != 3 {
		t.Errorf("the farm had %d connections; want 3, one a command", f.Connections())
	}

	wrong := "wrongtoken-9876543210"
	for _, ep := range []string{"ws://" + f.Addr + "/?token=" + wrong, "http://" + f.Addr + "/?token=" + wrong} {
		stdout, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ep, "--url", base+"/farm.html")
		if strings.Contains(stdout+stderr, wrong) {
			t.Errorf("a wrong token shows in the output:\n%s\n%s", stdout, stderr)
		}
		if code != exitConnect || !strings.Contains(stderr, "401") || !strings.Contains(stderr, "token") {
			t.Errorf("wrong token: exit %d, stderr %q; want exit %d saying the token was refused", code, stderr, exitConnect)
		}
	}
}
