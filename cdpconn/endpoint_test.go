package cdpconn_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// A bare port is this machine's, as Chrome's --remote-debugging-port
// takes it: not a remote host named "9600".
func TestBarePortEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"9600": "http://127.0.0.1:9600", ":9600": "http://127.0.0.1:9600", " 9222 ": "http://127.0.0.1:9222",
		"localhost:9222": "http://localhost:9222", "": cdpconn.DefaultEndpoint, "ws://h:1/x": "ws://h:1/x",
	} {
		if got := cdpconn.ExpandEndpoint(in); got != want {
			t.Errorf("ExpandEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
	u, err := url.Parse(cdptest.Browser(t).WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := cdpconn.Connect(ctx, u.Port(), false)
	if err != nil {
		t.Fatalf("--endpoint %s: %v", u.Port(), err)
	}
	_ = b.Close()
	if _, err := cdpconn.Connect(ctx, "1", false); err == nil || strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("--endpoint 1: %v; want no browser at 127.0.0.1:1, not a remote host", err)
	}
}
