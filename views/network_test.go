package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
	"domscope/themes"
)

// The requests of an action, packed into the lines the details pane has.
// Failed and pending ones are marked and the page's own origin dropped.
// What does not fit is counted. No line is wider than the pane, and no
// control sequence from a URL reaches the terminal.
func TestNetworkLines(t *testing.T) {
	st := themes.For(true, true)
	reqs := []dom.NetworkRequest{
		{Method: "POST", URL: "http://h:1/submit", Status: 201, Ms: 34},
		{Method: "GET", URL: "http://h:1/api/slow", Ms: 500, Pending: true},
		{Method: "GET", URL: "http://127.0.0.1:1/nothing", Failed: true, Error: "net::ERR_CONNECTION_REFUSED"},
		{Method: "GET", URL: "http://h:1/x\x1b[31m?q=…", Status: 404, Ms: 3},
		{Method: "GET", URL: "http://h:1/a.js", Status: 200, Ms: 1},
	}
	for _, c := range []struct {
		w, n int
		want []string
	}{
		{200, 3, []string{"network: POST /submit 201 34 ms · GET /api/slow … pending 500 ms · GET http://127.0.0.1:1/nothing ✗ net::ERR_CONNECTION_REFUSED · GET /x\\x1b[31m?q=… 404 3 ms · GET /a.js 200 1 ms"}},
		{80, 2, []string{
			"network: POST /submit 201 34 ms · GET /api/slow … pending 500 ms",
			"  GET http://127.0.0.1:1/nothing ✗ net::ERR_CONNECTION… · +2 more (d lists them)"}},
		{60, 1, []string{"network: POST /submit 201 34 ms · +4 more (d lists them)"}},
	} {
		got := NetworkLines(st, reqs, "http://h:1", c.w, c.n)
		for i := range got {
			if strings.Contains(got[i], "\x1b[31m") {
				t.Errorf("w=%d: an escape sequence in %q", c.w, got[i])
			}
			got[i] = ansi.Strip(got[i])
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("w=%d n=%d:\n got %q\nwant %q", c.w, c.n, got, c.want)
		}
	}
}
