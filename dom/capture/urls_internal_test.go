package capture

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/urls"
)

// safeURLStrings rewrites the strings that are URLs, in either JSON form.
// It leaves alone a URL inside a longer string, escaped quotes and every
// other byte.
func TestSafeURLStrings(t *testing.T) {
	in := `{"documentURL":"http://u:pw@h/?token=abc#sig=d","a":["x","https:\/\/h\/?session=e"],` +
		`"text":"see http://u:pw@h/?token=f","script":"x=\"http://h/?key=g\"","n":1,"rel":"/p?token=h"}`
	var secrets []string
	got := string(safeURLStrings([]byte(in), &secrets))
	want := `{"documentURL":"http://h/?token=…#sig=…","a":["x","https://h/?session=…"],` +
		`"text":"see http://u:pw@h/?token=f","script":"x=\"http://h/?key=g\"","n":1,"rel":"/p?token=h"}`
	if got != want {
		t.Errorf("safeURLStrings:\n got %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("the result is not valid JSON")
	}
	if s := strings.Join(secrets, " "); s != "pw abc d e" {
		t.Errorf("secrets %q", s)
	}
}

// ScrubURLs: the page URL's credentials go from its fields and its
// absolute URL strings. When long enough, they go from every other
// string too.
func TestScrubCaptureURLs(t *testing.T) {
	raw := &dom.RawCapture{URL: "http://u:PASSWORD1@h/p?session=SESSION1&code=12", Title: "SESSION1 page",
		Targets: []dom.RawTarget{{URL: "http://u:PASSWORD1@h/p?session=SESSION1&code=12",
			Frames:   []dom.RawFrame{{URL: "http://h/f?api_key=FRAMEKEY1"}},
			Document: json.RawMessage(`{"root":{"documentURL":"http://u:PASSWORD1@h/p?session=SESSION1&code=12","attributes":["src","f?api_key=FRAMEKEY1","title","code 12"]}}`),
			Layout:   json.RawMessage(`{"documents":[],"strings":["echo PASSWORD1","12"]}`)}}}
	ScrubURLs(raw)
	b, _ := json.Marshal(raw)
	for _, leak := range []string{"PASSWORD1", "SESSION1", "FRAMEKEY1", "u:"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("%s is left in %s", leak, b)
		}
	}
	for _, kept := range []string{`"code 12"`, `"12"`, `http://h/p?session=…\u0026code=…`} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("%s is gone from %s", kept, b)
		}
	}
}

// FuzzSafeURLStrings: on any bytes the rewrite does not panic. On JSON it
// keeps JSON valid, and every string that is a URL comes out safe.
func FuzzSafeURLStrings(f *testing.F) {
	for _, s := range []string{"http://u:p@h/?token=x", `a\"http://u@h`, "x://", `":\/\/`, "\\", "https:\\/\\/h/?sig=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var secrets []string
		_ = safeURLStrings([]byte(s), &secrets) // arbitrary bytes: no panic
		in, _ := json.Marshal([]string{s, "http://" + s, "ws://u:" + s + "@h/?key=" + s})
		out := safeURLStrings(in, &secrets)
		var got []string
		if err := json.Unmarshal(out, &got); err != nil || len(got) != 3 {
			t.Fatalf("%s -> %s: not the same JSON array (%v)", in, out, err)
		}
		for _, g := range got {
			if strings.Contains(g, "://") && !strings.HasPrefix(g, "://") && urls.Safe(g) != g && urls.SchemeChar(g[0], true) {
				t.Fatalf("%q is left unsafe in %s", g, out)
			}
		}
	})
}
