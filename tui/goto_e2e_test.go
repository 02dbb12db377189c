package tui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"domscope/dom/demo"
)

// The go-to prompt (g) acts as an address bar. It starts with the page's
// URL, and the first character typed replaces all of it. So typing
// another URL goes there, not to the two glued together. A key that moves
// or edits keeps the URL. End, then backspaces and a new file name, edits
// it.
func TestGotoReplacesTheURLFullProgram(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	tm := startTerm(t, base+"/signin.html", 140, 44)
	tm.waitFor("the sign-in page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Sign in · Acme”") && strings.Contains(s, "snapshot #")
	})

	tm.keys("g")
	tm.waitText("go to › "+base+"/signin.html", 5*time.Second)
	tm.text(base + "/products.html")
	tm.waitText("go to › "+base+"/products.html", 5*time.Second)
	tm.keys("Enter")
	s := tm.waitFor("the products page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Shop · Acme”") || strings.Contains(s, "404")
	})
	if !strings.Contains(strings.SplitN(s, "\n", 2)[0], base+"/products.html ") {
		t.Fatalf("typing a URL into the go-to prompt did not go there:\n%s", s)
	}

	tm.keys("g", "End")
	for range len("products.html") {
		tm.keys("BSpace")
	}
	tm.text("signin.html")
	tm.waitText("go to › "+base+"/signin.html", 5*time.Second)
	tm.keys("Enter")
	s = tm.waitFor("the sign-in page again", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Sign in · Acme”") || strings.Contains(s, "404")
	})
	if !strings.Contains(strings.SplitN(s, "\n", 2)[0], base+"/signin.html ") {
		t.Fatalf("editing the URL after End did not keep it:\n%s", s)
	}
	tm.quit()
}

// The page's URL carries a token, which the prompt shows as …. Enter on it
// unchanged loads the page again with the real token. It does not load
// "…".
func TestGotoUnchangedKeepsTheRealTokenFullProgram(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen := "wrong token"
		if r.URL.Query().Get("token") == "s3cr3t-value" {
			seen = "real token"
		}
		fmt.Fprintf(w, "<title>%s %d</title><button>b</button>", seen, time.Now().UnixNano())
	}))
	t.Cleanup(srv.Close)
	tm := startTerm(t, srv.URL+"/?token=s3cr3t-value", 140, 44)
	first := tm.waitFor("the page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“real token") && strings.Contains(s, "snapshot #")
	})
	title := func(s string) string {
		_, after, _ := strings.Cut(s, "“real token ")
		before, _, _ := strings.Cut(after, "”")
		return before
	}
	tm.keys("g")
	tm.waitText("token=…", 5*time.Second)
	tm.keys("Enter")
	s := tm.waitFor("the page again", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“wrong token") || (strings.Contains(s, "“real token") && title(s) != title(first))
	})
	if !strings.Contains(s, "“real token") {
		t.Fatalf("Enter on the unchanged URL did not load the page with its real token:\n%s", s)
	}
	if strings.Contains(s, "s3cr3t-value") {
		t.Fatalf("the token shows on screen:\n%s", s)
	}
	tm.quit()
}
