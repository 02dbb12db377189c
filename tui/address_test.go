package tui

import "testing"

func TestAddress(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"127.0.0.1:8766/x", "http://127.0.0.1:8766/x"},
		{"localhost:3000", "http://localhost:3000"},
		{"localhost", "http://localhost"},
		{"app.localhost/a", "http://app.localhost/a"},
		{"10.0.0.5/admin", "http://10.0.0.5/admin"},
		{"[::1]:8080/", "http://[::1]:8080/"},
		{"example.com:8443/a?b=c", "http://example.com:8443/a?b=c"},
		{"example.com", "https://example.com"},
		{"en.wikipedia.org/wiki/Go", "https://en.wikipedia.org/wiki/Go"},
		{"  example.com/a  ", "https://example.com/a"},
		{"http://example.com", "http://example.com"},
		{"HTTPS://example.com", "HTTPS://example.com"},
		{"file:///tmp/a.html", "file:///tmp/a.html"},
		{"/tmp/a.html", "file:///tmp/a.html"},
		{"data:text/html,<p>hi", "data:text/html,<p>hi"},
		{"about:blank", "about:blank"},
		{"chrome://version", "chrome://version"},
		{"", ""},
	} {
		if got := address(c.in); got != c.want {
			t.Errorf("address(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
