package cdptest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// TabOverHTTP opens a tab at u in the shared browser over its HTTP
// endpoint (PUT /json/new), as another client would: it goes into the
// last active window. It returns the tab's id and closes it at cleanup.
func TabOverHTTP(t testing.TB, u string) string {
	t.Helper()
	ws, err := url.Parse(Browser(t).WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	return TabAt(t, "http://"+ws.Host, u)
}

// TabAt is TabOverHTTP for the browser at endpoint (http://host:port).
func TabAt(t testing.TB, endpoint, u string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, endpoint+"/json/new?"+u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var made struct {
		ID string `json:"id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if err != nil || made.ID == "" {
		t.Fatalf("a new tab over HTTP: %v %+v", err, made)
	}
	t.Cleanup(func() {
		// The browser may be gone by then: nothing to close.
		if r, err := http.Get(endpoint + "/json/close/" + made.ID); err == nil {
			r.Body.Close()
		}
	})
	return made.ID
}
