package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// TestSnapshotDirectHidesURLSecrets: `snapshot` on an open tab attaches
// directly and reads the page in its own order. The page's URL carries a
// token and user info. The page copies that URL into its text, a link
// and its title. Neither way of attaching shows them: direct, or
// DOMSCOPE_CAPTURE=classic through chromedp. Both give the same output.
func TestSnapshotDirectHidesURLSecrets(t *testing.T) {
	base, _ := cdptest.Serve(t, pages)
	u := strings.Replace(base, "http://", "http://alice:PASSWD-4471@", 1) + "/nonsemantic.html?token=URLTOKEN-99887766&tab=direct-url"
	p := cdptest.Page(t, u)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	copyURL := `(() => { const p = document.createElement('p'); p.textContent = 'here: ' + location.href;
		const a = document.createElement('a'); a.href = location.href; a.textContent = 'again';
		document.body.append(p, a); document.title += ' ' + location.search; return location.href })()`
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": copyURL, "returnByValue": true}, &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Result.Value, "URLTOKEN-99887766") {
		t.Fatalf("the page's URL lost its token before the test: %q", r.Result.Value)
	}
	ws := cdptest.Browser(t).WebSocketURL()
	for _, format := range []string{"json", "text", "tree"} {
		var outs []string
		for _, mode := range []string{"", classicCapture} {
			t.Setenv("DOMSCOPE_CAPTURE", mode)
			out, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", p.TargetID(), "--format", format, "--backend-ids="+boolText(format == "json"))
			if code != 0 {
				t.Fatalf("snapshot --format %s (%q): exit %d: %s", format, mode, code, stderr)
			}
			for _, secret := range []string{"URLTOKEN-99887766", "PASSWD-4471", "alice"} {
				if strings.Contains(out, secret) {
					t.Errorf("snapshot --format %s (%q) shows %q:\n%s", format, mode, secret, out)
				}
			}
			if !strings.Contains(out, "again") {
				t.Errorf("snapshot --format %s (%q): the page's own link is missing:\n%s", format, mode, out)
			}
			outs = append(outs, stamped.ReplaceAllString(out, ""))
		}
		if outs[0] != outs[1] {
			t.Errorf("--format %s: direct and classic differ:\n%s\n---\n%s", format, outs[0], outs[1])
		}
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// stamped is the json output's capture time. It differs between two
// snapshots of the same page.
var stamped = regexp.MustCompile(`"timestamp":\s*"[^"]*"`)
