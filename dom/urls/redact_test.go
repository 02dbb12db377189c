package urls_test

import (
	"testing"

	"domscope/dom/urls"
)

func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://a.example/search?q=shoes&page=2", "https://a.example/search?q=…&page=…"},
		{"https://a.example/p", "https://a.example/p"},
		{"https://a.example/p?", "https://a.example/p?"},
		{"https://a.example/p?token=SECRET&x=1#frag=SECRET", "https://a.example/p?token=…&x=…"},
		{"https://a.example/p?SECRET&&k=", "https://a.example/p?…&&k=…"},
		{"https://user:SECRET@a.example/p?k=v", "https://a.example/p?k=…"},
		{"http://a.example?@SECRET", "http://a.example?…"},
		{"data:image/png;base64,SECRET", "data:image/png;base64,…"},
	} {
		if got := urls.Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
