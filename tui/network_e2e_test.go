package tui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/live"
)

// liveModel is the UI at w×h on a real page in the shared browser. It
// goes through a real service, after its first snapshot.
func liveModel(t *testing.T, url string, w, h int) (*Model, *live.Service) {
	t.Helper()
	svc := live.NewService(cdptest.Page(t, url), live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	m := newModel(context.Background(), Config{Actor: svc, NoColor: true, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	settle(t, m, m.refresh(false, "first snapshot"))
	if m.doc.snap == nil {
		t.Fatal("no snapshot after start")
	}
	return m, svc
}

// selectAttrID selects the node whose id attribute is id.
func selectAttrID(t *testing.T, m *Model, id string) {
	t.Helper()
	var found string
	dom.Walk(m.doc.snap.Root, func(n *dom.VirtualNode) {
		if found == "" && n.Attrs["id"] == id {
			found = n.ID
		}
	})
	if found == "" || !m.panes.tree.Reveal(found) {
		t.Fatalf("no element #%s in snapshot #%d", id, m.doc.snap.Seq)
	}
	m.panes.focus = treeFocus
}

// The details pane lists the requests of the last action: method, URL
// with its query values redacted, status, time. d lists them all. They
// are a fetch, an authenticated fetch and a click that posts a form. No
// query, cookie or Authorization value reaches the screen, though the
// server got them.
func TestNetworkOfLastAction(t *testing.T) {
	seen := make(chan string, 16)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("../testdata/pages/network")))
	mux.HandleFunc("POST /submit", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte("<!doctype html><title>Thanks</title><h1>Thanks</h1>"))
	})
	mux.HandleFunc("/api/search", func(w http.ResponseWriter, r *http.Request) {
		seen <- "token=" + r.URL.Query().Get("token")
		_, _ = w.Write([]byte("found"))
	})
	mux.HandleFunc("/api/me", func(w http.ResponseWriter, r *http.Request) {
		seen <- "auth=" + r.Header.Get("Authorization")
		http.SetCookie(w, &http.Cookie{Name: "other", Value: "SETCOOKIESECRET", Path: "/"})
		_, _ = w.Write([]byte("you"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	m, _ := liveModel(t, srv.URL+"/form.html", 140, 44)
	var screens []string
	shot := func() string {
		s := plainScreen(m)
		screens = append(screens, s)
		return s
	}
	detailsLine := func(s string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "│network: ") {
				return l
			}
		}
		return ""
	}

	selectAttrID(t, m, "search")
	press(t, m, k('c'))
	s := shot()
	if l := detailsLine(s); !strings.Contains(l, "GET /api/search?token=…&x=… 200") || !strings.Contains(l, " ms") {
		t.Errorf("the details pane does not list the search request:\n%s", s)
	}

	selectAttrID(t, m, "auth")
	press(t, m, k('c'))
	s = shot()
	if l := detailsLine(s); !strings.Contains(l, "GET /api/me 200") {
		t.Errorf("the details pane does not list the authenticated request:\n%s", s)
	}
	press(t, m, k('d'))
	s = shot()
	if !strings.Contains(s, "Network of the last action (1)") || !strings.Contains(s, "GET "+srv.URL+"/api/me 200") {
		t.Errorf("d does not list the request:\n%s", s)
	}
	press(t, m, escKey)

	selectAttrID(t, m, "send")
	press(t, m, k('c'))
	s = shot()
	if l := detailsLine(s); !strings.Contains(l, "POST /submit 201") {
		t.Errorf("the form's POST is not in the details pane:\n%s", s)
	}
	if !strings.Contains(s, "“Thanks”") {
		t.Errorf("the form was not posted:\n%s", s)
	}
	press(t, m, k('d'))
	s = shot()
	if !strings.Contains(s, "POST "+srv.URL+"/submit 201") {
		t.Errorf("d does not list the POST:\n%s", s)
	}

	close(seen)
	var got []string
	for g := range seen {
		got = append(got, g)
	}
	if strings.Join(got, " ") != "token=SECRETTOKEN auth=Bearer AUTHSECRET" {
		t.Fatalf("the server did not get the secrets the page sent (%v): the check below would prove nothing", got)
	}
	for _, s := range screens {
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, "onclick=") {
				continue // the page's own script, in the selected button's attributes
			}
			for _, secret := range []string{"SECRETTOKEN", "AUTHSECRET", "COOKIESECRET", "SETCOOKIESECRET", "Bearer", "sid="} {
				if strings.Contains(line, secret) {
					t.Errorf("%q reached the screen:\n%s", secret, s)
				}
			}
		}
	}
}
