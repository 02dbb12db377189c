package live_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	. "domscope/dom"
	. "domscope/dom/live"
)

// networkServer serves testdata/pages/network and answers its requests.
// They are the form's POST, a search, an authenticated call that sets a
// cookie, and one that takes longer than any settle. seen records what
// the server got.
type networkServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func (s *networkServer) saw(what string) {
	s.mu.Lock()
	s.seen = append(s.seen, what)
	s.mu.Unlock()
}

func (s *networkServer) got(what string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.seen {
		if w == what {
			return true
		}
	}
	return false
}

func newNetworkServer(t testing.TB) *networkServer {
	ns := &networkServer{}
	stop := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("../../testdata/pages/network")))
	mux.HandleFunc("POST /submit", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		ns.saw("POST /submit email=" + r.PostFormValue("email"))
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte("<!doctype html><title>Thanks</title><h1>Thanks</h1>"))
	})
	mux.HandleFunc("/api/search", func(w http.ResponseWriter, r *http.Request) {
		ns.saw("search token=" + r.URL.Query().Get("token"))
		_, _ = w.Write([]byte("found"))
	})
	mux.HandleFunc("/api/me", func(w http.ResponseWriter, r *http.Request) {
		ns.saw("me auth=" + r.Header.Get("Authorization"))
		if c, err := r.Cookie("sid"); err == nil {
			ns.saw("me cookie=" + c.Value)
		}
		http.SetCookie(w, &http.Cookie{Name: "other", Value: "SETCOOKIESECRET", Path: "/"})
		_, _ = w.Write([]byte("you"))
	})
	mux.HandleFunc("/api/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(hangGuard):
		case <-r.Context().Done():
		case <-stop:
		}
	})
	ns.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(stop)
		ns.Server.CloseClientConnections()
		ns.Server.Close()
	})
	return ns
}

// findRequest returns the listed request whose URL has this path (and
// method). When there is none it fails the test with the whole list.
func findRequest(t *testing.T, res ActionResult, method, path string) NetworkRequest {
	t.Helper()
	for _, r := range res.Network {
		if r.Method == method && strings.Contains(r.URL, path) {
			return r
		}
	}
	b, _ := json.Marshal(res)
	t.Fatalf("no %s %s in the action's network list:\n%s", method, path, b)
	return NetworkRequest{}
}

// TestActionNetwork: each action lists the requests it started, with
// status and timing. Query values are redacted. Failed and pending ones
// are marked. No cookie or Authorization value appears anywhere in the
// result. A click that posts a form lists the POST and its status.
func TestActionNetwork(t *testing.T) {
	srv := newNetworkServer(t)
	s, _ := openService(t, srv.URL+"/form.html", Config{})
	defer s.Close()
	click := func(css string) (ActionResult, string) {
		t.Helper()
		n := byAttrID(t, snap(t, s), css)
		res := s.Do(ctx(t), Action{Kind: KindClick, ID: n.ID})
		if !res.Success {
			t.Fatalf("click #%s: %+v", css, res.Error)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("click #%s: %s", css, b)
		return res, string(b)
	}

	res, js := click("search")
	r := findRequest(t, res, "GET", "/api/search")
	if r.URL != srv.URL+"/api/search?token=…&x=…" || r.Status != 200 || r.Failed || r.Pending || r.Type != "Fetch" {
		t.Errorf("search request listed as %+v", r)
	}
	if !srv.got("search token=SECRETTOKEN") {
		t.Fatalf("the server never got the search with its token: %v", srv.seen)
	}
	if strings.Contains(js, "SECRETTOKEN") {
		t.Errorf("the query value leaked into the result: %s", js)
	}

	res, js = click("auth")
	r = findRequest(t, res, "GET", "/api/me")
	if r.Status != 200 || r.Failed || r.Pending {
		t.Errorf("authenticated request listed as %+v", r)
	}
	if !srv.got("me auth=Bearer AUTHSECRET") || !srv.got("me cookie=COOKIESECRET") {
		t.Fatalf("the request did not carry its Authorization and Cookie headers: %v", srv.seen)
	}
	for _, secret := range []string{"AUTHSECRET", "COOKIESECRET", "SETCOOKIESECRET", "Bearer", "sid="} {
		if strings.Contains(js, secret) {
			t.Errorf("%q leaked into the result: %s", secret, js)
		}
	}

	res, _ = click("broken")
	if r := findRequest(t, res, "GET", "127.0.0.1:1/nothing"); !r.Failed || r.Error == "" || r.Status != 0 || r.Pending {
		t.Errorf("a refused request listed as %+v; want failed with the browser's reason", r)
	}

	res, _ = click("slow")
	if r := findRequest(t, res, "GET", "/api/slow"); !r.Pending || r.Failed || r.Status != 0 {
		t.Errorf("a request still under way at settle listed as %+v; want pending", r)
	}

	res, _ = click("send")
	r = findRequest(t, res, "POST", "/submit")
	if r.URL != srv.URL+"/submit" || r.Status != 201 || r.Type != "Document" || r.Failed || r.Pending {
		t.Errorf("the form's POST listed as %+v", r)
	}
	if !srv.got("POST /submit email=a@b.c") || !res.Changes.Navigated {
		t.Errorf("the form was not posted (server saw %v, navigated %v)", srv.seen, res.Changes.Navigated)
	}
	// The requests of one action are not listed again on the next.
	res = s.Do(ctx(t), Action{Kind: KindScroll, DY: 100})
	for _, r := range res.Network {
		if strings.Contains(r.URL, "/submit") || strings.Contains(r.URL, "/api/") {
			t.Errorf("a scroll lists an earlier action's request %+v", r)
		}
	}
}

// TestActionNetworkInFrame: a click in a cross-origin (out-of-process)
// frame lists the request the frame's page sent, from the frame's session.
func TestActionNetworkInFrame(t *testing.T) {
	srv := newNetworkServer(t)
	other := httptest.NewServer(http.FileServer(http.Dir("../../testdata/pages/network")))
	t.Cleanup(other.Close)
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	s, _ := openService(t, srv.URL+"/outer.html?src="+otherURL+"/inner.html", Config{})
	defer s.Close()
	var ping *VirtualNode
	for i := 0; i < 50 && ping == nil; i++ {
		ping = findAttr(snap(t, s), "id", "ping")
		if ping == nil {
			time.Sleep(100 * time.Millisecond)
			s.Invalidate()
		}
	}
	if ping == nil {
		t.Fatal("the frame's button never appeared")
	}
	if ping.TargetID == "" || ping.TargetID == snap(t, s).TargetID {
		t.Fatalf("the frame is not out of process (target %q): the test needs site isolation", ping.TargetID)
	}
	res := s.Do(ctx(t), Action{Kind: KindClick, ID: ping.ID})
	if !res.Success {
		t.Fatalf("click: %+v", res.Error)
	}
	r := findRequest(t, res, "GET", "/inner.html?ping=")
	if r.URL != otherURL+"/inner.html?ping=…" || r.Status != 200 || r.Pending || r.Failed {
		t.Errorf("the frame's request listed as %+v", r)
	}
}
