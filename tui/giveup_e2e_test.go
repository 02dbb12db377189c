package tui

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/dom/demo"
)

// A navigation to a server that takes the connection and never answers
// ends with the operation's bound: here 4 s, 60 s in use. The result says
// the UI gave up waiting for the page to load. It does not say it was
// cancelled.
func TestNavigationNeverAnswersFullProgram(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // read nothing, answer nothing
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		silent.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})

	tm := startTerm(t, base+"/signin.html", 140, 44, "DOMSCOPE_TUI_OPTIMEOUT=4s")
	tm.waitFor("the sign-in page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Sign in · Acme”") && strings.Contains(s, "snapshot #")
	})
	tm.keys("g")
	tm.text("http://" + silent.Addr().String() + "/never")
	tm.keys("Enter")
	s := tm.waitText("gave up after 4 s waiting for the page to load", 30*time.Second)
	if strings.Contains(s, "cancelled") || strings.Contains(s, "snapshot failed") {
		t.Errorf("the result blames a cancel or the snapshot:\n%s", s)
	}
	if !detailsHave(s, "TIMEOUT") {
		t.Errorf("the details do not show the action's TIMEOUT:\n%s", s)
	}
	tm.quit()
}
