package live

import "testing"

func TestNormalizeURL(t *testing.T) {
	cases := map[string]string{
		"example.com":             "https://example.com",
		"  example.com/a?b=1  ":   "https://example.com/a?b=1",
		"localhost:8080/x":        "http://localhost:8080/x",
		"127.0.0.1:9/":            "http://127.0.0.1:9/",
		"http://a.test":           "http://a.test",
		"about:blank":             "about:blank",
		"data:text/html,<b>x</b>": "data:text/html,<b>x</b>",
		"file:///tmp/x.html":      "file:///tmp/x.html",
		"":                        "",
	}
	for in, want := range cases {
		if got := normalizeURL(in); got != want {
			t.Errorf("normalizeURL(%q) = %q, want %q", in, got, want)
		}
	}
}
