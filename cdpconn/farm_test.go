package cdpconn_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// TestFarmEndpoints: a browser farm that demands its token is reached
// both ways. The farm is a loopback proxy in front of real Chromium, a
// browser for each connection. One way is its ws:// URL as given. The
// other is its http:// URL. Its query goes on /json/version and on the
// socket URL that answers. A page opened there loads in that
// connection's browser. A wrong token is a clear refusal that never
// repeats the token.
func TestFarmEndpoints(t *testing.T) {
	f := cdptest.NewFarm(t, 2)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.html"), []byte(`<title>on the farm</title><button>hi</button>`), 0o644)
	page, _ := cdptest.Serve(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	for i, ep := range []string{"ws://" + f.Addr + "/?token=" + f.Token, "http://" + f.Addr + "?token=" + f.Token} {
		b, err := cdpconn.Connect(ctx, ep, false)
		if err != nil {
			t.Fatalf("connect %s: %v", cdpconn.Redact(ep), err)
		}
		p, err := b.NewPage(ctx, page+"/a.html")
		if err != nil {
			b.Close()
			t.Fatalf("new page over %s: %v", cdpconn.Redact(ep), err)
		}
		var r struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true}, &r)
		b.Close()
		if err != nil || r.Result.Value != "on the farm" {
			t.Fatalf("the page over %s: title %q, %v", cdpconn.Redact(ep), r.Result.Value, err)
		}
		if f.Connections() != i+1 {
			t.Fatalf("after %s the farm had %d connections, want %d (one browser a connection)", cdpconn.Redact(ep), f.Connections(), i+1)
		}
	}
	if f.Versions() != 1 {
		t.Errorf("the farm answered /json/version %d times; want once, for the http:// form only", f.Versions())
	}

	wrong := "wrongtoken-0123456789"
	for _, ep := range []string{"ws://" + f.Addr + "/?token=" + wrong, "http://" + f.Addr + "/?token=" + wrong, "http://" + f.Addr} {
		_, err := cdpconn.Connect(ctx, ep, false)
		if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "token") {
			t.Errorf("%s: got %v; want ATTACH_FAILED saying the token was refused (401)", cdpconn.Redact(ep), err)
		}
		t.Logf("%s: %v", cdpconn.Redact(ep), err)
		if err != nil && strings.Contains(err.Error(), wrong) {
			t.Errorf("%s: the error repeats the token: %v", cdpconn.Redact(ep), err)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"ws://127.0.0.1:3000/?token=abc123":                     "ws://127.0.0.1:3000/?token=…",
		"wss://farm.example/chromium?token=x&launch={}":         "wss://farm.example/chromium?launch=…&token=…",
		"http://user:pw@127.0.0.1:9222":                         "http://127.0.0.1:9222",
		"ws://127.0.0.1:9222/devtools/browser/ab-cd":            "ws://127.0.0.1:9222/devtools/browser/ab-cd",
		"http://127.0.0.1:9222/#secret":                         "http://127.0.0.1:9222/",
		"ws://h:1/?apiKey=k1&apiKey=k2":                         "ws://h:1/?apiKey=…",
		"127.0.0.1:9222":                                        "127.0.0.1:9222",
		"ws://bad host/?token=zzz%":                             "ws://bad host/?…",
		"wss://connect.example.com?apiKey=0123456789abcdef&x=1": "wss://connect.example.com?apiKey=…&x=…",
	} {
		if got := cdpconn.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRefusedDialNeverHangs: a websocket endpoint that refuses the dial
// (401) fails every time, at once. A chromedp.Cancel started before the
// dial used to race the context's own cancel for its allocation token.
// After a failed dial, Connect then hung now and then. Many tries catch
// it. The bound is a hang guard.
func TestRefusedDialNeverHangs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "a valid token is required", http.StatusUnauthorized)
	}))
	defer srv.Close()
	ep := "ws://" + strings.TrimPrefix(srv.URL, "http://") + "/?token=wrongtoken-0123456789"
	done := make(chan error, 1)
	go func() {
		for i := 0; i < 300; i++ {
			_, err := cdpconn.Connect(context.Background(), ep, false)
			if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "401") {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a refused dial: %v; want ATTACH_FAILED saying 401", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Connect hung after a refused dial")
	}
}

// TestDirectAttachFarmToken: `snapshot --target` attaches directly. Over
// a farm's URL its errors never repeat the token, right or wrong. A right
// one attaches to the farm's tab.
func TestDirectAttachFarmToken(t *testing.T) {
	f := cdptest.NewFarm(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	wrong := "wrongtoken-0123456789"
	for _, ep := range []string{"ws://" + f.Addr + "/?token=" + wrong, "http://" + f.Addr + "/?token=" + wrong} {
		_, err := cdpconn.AttachDirect(ctx, ep, false, "")
		if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "token") {
			t.Errorf("%s: got %v; want ATTACH_FAILED saying the token was refused (401)", cdpconn.Redact(ep), err)
		}
		if err != nil && strings.Contains(err.Error(), wrong) {
			t.Errorf("%s: the error repeats the token: %v", cdpconn.Redact(ep), err)
		}
	}
	ep := "ws://" + f.Addr + "/?token=" + f.Token
	_, err := cdpconn.AttachDirect(ctx, ep, false, "no-such-tab-on-the-farm")
	if dom.CodeOf(err) != dom.TargetNotFound {
		t.Errorf("a tab the farm's browser lacks: %v, want TARGET_NOT_FOUND", err)
	}
	if err != nil && strings.Contains(err.Error(), f.Token) {
		t.Errorf("the error repeats the token: %v", err)
	}
}
