package urls

import (
	"errors"
	"testing"
)

func TestCompleteWithoutPage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"127.0.0.1:8766/x", "http://127.0.0.1:8766/x"},
		{"localhost:3000", "http://localhost:3000"},
		{"localhost:8600/x/", "http://localhost:8600/x/"},
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
		{"view-source:https://example.com/", "view-source:https://example.com/"},
	} {
		got, err := Complete(c.in, "")
		if err != nil || got != c.want {
			t.Errorf("Complete(%q, \"\") = %q, %v; want %q", c.in, got, err, c.want)
		}
		// about:blank is no base either
		if got2, err := Complete(c.in, "about:blank"); err != nil || got2 != got {
			t.Errorf("Complete(%q, about:blank) = %q, %v; want %q", c.in, got2, err, got)
		}
	}
	for _, in := range []string{"products.html", "products", "./a", "?q=1"} {
		if got, err := Complete(in, ""); !errors.Is(err, ErrRelative) {
			t.Errorf("Complete(%q, \"\") = %q, %v; want ErrRelative", in, got, err)
		}
	}
	if _, err := Complete("  ", ""); err == nil {
		t.Error("an empty address completed")
	}
}

// A page's links are relative; an agent passes them on as the view
// shows them (href=products.html). They resolve as the page's do.
func TestCompleteAgainstPage(t *testing.T) {
	const base = "http://127.0.0.1:8600/shop/index.html?x=1"
	for _, c := range []struct{ in, want string }{
		{"products.html", "http://127.0.0.1:8600/shop/products.html"},
		{"products", "http://127.0.0.1:8600/shop/products"},
		{"sub/item.php?id=2", "http://127.0.0.1:8600/shop/sub/item.php?id=2"},
		{"/cart", "http://127.0.0.1:8600/cart"},
		{"../about.html", "http://127.0.0.1:8600/about.html"},
		{"./a.html", "http://127.0.0.1:8600/shop/a.html"},
		{"?page=2", "http://127.0.0.1:8600/shop/index.html?page=2"},
		{"#reviews", "http://127.0.0.1:8600/shop/index.html?x=1#reviews"},
		{"example.com", "https://example.com"},
		{"example.com/a", "https://example.com/a"},
		{"localhost:9000", "http://localhost:9000"},
		{"https://other.test/", "https://other.test/"},
	} {
		if got, err := Complete(c.in, base); err != nil || got != c.want {
			t.Errorf("Complete(%q, base) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if got, _ := Complete("b.html", "file:///tmp/site/a.html"); got != "file:///tmp/site/b.html" {
		t.Errorf("against a file page: %q", got)
	}
}
