package urls_test

import (
	"net/url"
	"strings"
	"testing"

	"domscope/dom/urls"
)

func TestSafeURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"https://a.example/p", "https://a.example/p"},
		{"http://user:PASSWORD@127.0.0.1:8080/page?session=SECRET&x=1#token=SECRET2",
			"http://127.0.0.1:8080/page?session=…&x=1#token=…"},
		{"https://user@a.example/", "https://a.example/"},
		{"https://a:b@c@a.example/p@q", "https://a.example/p@q"},
		// the rest stays byte for byte: no re-encoding of other values
		{"https://a.example/s?q=caf%C3%A9+au+lait&TOKEN=x&b=%zz", "https://a.example/s?q=caf%C3%A9+au+lait&TOKEN=…&b=%zz"},
		{"https://a.example/?Access_Token=1&id_token=2&api-key=3&APIKEY=4&pwd=5&pass=6&password=7&secret=8&auth=9&code=10&signature=11&sig=12&jwt=13&key=14&sid=15",
			"https://a.example/?Access_Token=…&id_token=…&api-key=…&APIKEY=…&pwd=…&pass=…&password=…&secret=…&auth=…&code=…&signature=…&sig=…&jwt=…&key=…&sid=…"},
		{"https://s3.example/o?X-Amz-Signature=abc&X-Amz-Credential=def&refresh_token=g&client_secret=h",
			"https://s3.example/o?X-Amz-Signature=…&X-Amz-Credential=…&refresh_token=…&client_secret=…"},
		{"https://a.example/?country_code=FR&sort_key=name&author=me&keyword=go", "https://a.example/?country_code=FR&sort_key=name&author=me&keyword=go"},
		{"https://a.example/?%74oken=x", "https://a.example/?%74oken=…"},
		{"https://a.example/?token=&q=1", "https://a.example/?token=&q=1"},
		{"https://a.example/?token=abc=def;x", "https://a.example/?token=…"},
		{"https://a.example/?a=1;session=abc&b=2", "https://a.example/?a=1;session=…&b=2"},
		{"https://a.example/#/callback?code=abc&state=x", "https://a.example/#/callback?code=…&state=x"},
		{"https://a.example/#access_token=abc&token_type=bearer", "https://a.example/#access_token=…&token_type=bearer"},
		{"https://a.example/?next=/cb?token=abc", "https://a.example/?next=/cb?token=…"},
		{"https://a.example/?next=%2Fcb%3Ftoken%3Dabc&q=1", "https://a.example/?next=…&q=1"},
		{"https://a.example/?next=https%3A%2F%2Fu%3Apw%40b.example%2F", "https://a.example/?next=…"},
		{"https://a.example/?email=a@b.example", "https://a.example/?email=a@b.example"},
		// forms browsers accept for web schemes
		{"http:u:pw@a.example/p", "http:a.example/p"},
		{"http:\\\\u:pw@a.example\\p", "http:\\\\a.example\\p"},
		{"  HTTPS://u:pw@a.example", "  HTTPS://a.example"},
		{"//u:pw@a.example/p", "//a.example/p"},
		// relative references and other schemes
		{"/p?session=abc", "/p?session=…"},
		{"?token=abc", "?token=…"},
		{"mailto:a@b.example?subject=hi", "mailto:a@b.example?subject=hi"},
		{"about:blank", "about:blank"},
		{"not a url at all", "not a url at all"},
		{"http://[::1:bad@host/?token=x%", "http://host/?token=…"},
	} {
		if got := urls.Safe(c.in); got != c.want {
			t.Errorf("SafeURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzSafeURL: SafeURL never panics and is stable when applied again.
// What it returns holds no user info and no credential value a URL parser
// would find. A URL with nothing to hide comes back unchanged.
func FuzzSafeURL(f *testing.F) {
	for _, s := range []string{
		"http://user:PASSWORD@127.0.0.1:8080/page?session=SECRET&x=1#token=SECRET2",
		"https://a.example/?next=%2Fcb%3Ftoken%3Dabc", "http:\\\\u:p@h\\x", "//u@h", "?a=1;key=2#sig=3",
		"https://a.example/s?q=caf%C3%A9", "https://h/?%2574oken=x", "data:text/plain,?token=x", "\x00http://u@h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := urls.Safe(in)
		if again := urls.Safe(out); again != out {
			t.Fatalf("SafeURL is not stable: %q -> %q -> %q", in, out, again)
		}
		if u, err := url.Parse(out); err == nil {
			if u.User != nil && u.Host != "" {
				t.Fatalf("SafeURL(%q) = %q keeps user info %q", in, out, u.User)
			}
			for _, part := range []string{u.RawQuery, u.RawFragment, u.Fragment} {
				q, _ := url.ParseQuery(part)
				for k, vs := range q {
					for _, v := range vs {
						if v != "" && v != urls.Redacted && secretKey(k) {
							t.Fatalf("SafeURL(%q) = %q keeps %s=%q", in, out, k, v)
						}
					}
				}
			}
		}
		if !strings.ContainsAny(in, "@=%") && out != in {
			t.Fatalf("SafeURL(%q) = %q changed a URL with nothing to hide", in, out)
		}
	})
}

// secretKey is the spec's list of credential keys, compared without case.
func secretKey(k string) bool {
	switch strings.ToLower(k) {
	case "token", "access_token", "id_token", "session", "sid", "key", "api_key", "apikey", "password",
		"pass", "pwd", "secret", "auth", "code", "signature", "sig", "jwt":
		return true
	}
	return false
}

func TestSafeURLsIn(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"no url here", "no url here"},
		{"navigate http://u:pw@h.example/p?token=abc then", "navigate http://h.example/p?token=… then"},
		{`refusing "https://h/?sig=1" and (ws://u@h/?key=2)`, `refusing "https://h/?sig=…" and (ws://h/?key=…`},
		{"://?token=x", "://?token=…"},
	} {
		if got := urls.SafeIn(c.in); got != c.want {
			t.Errorf("SafeURLsIn(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSafeURLEncodedFragment(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://h/#token%3Dabc", "https://h/#…"},
		{"https://h/#access_token=abc%2Fdef&state=x%20y", "https://h/#access_token=…&state=x%20y"},
		{"https://h/#sig=#", "https://h/#sig=…"},
		{"ws://u@/x@h/?key=1", "ws:///h/?key=…"},
	} {
		if got := urls.Safe(c.in); got != c.want {
			t.Errorf("SafeURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
