package urls

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ErrRelative is Complete's error for a relative address with no page
// to resolve it against.
var ErrRelative = errors.New("a relative address needs a page to resolve it against")

// fileExts are endings that make "name.ext" a file, not a host. A page's
// links are relative; an agent passes them on as the view shows them.
var fileExts = map[string]bool{
	"html": true, "htm": true, "xhtml": true, "shtml": true, "php": true, "asp": true, "aspx": true,
	"jsp": true, "cgi": true, "xml": true, "json": true, "txt": true, "pdf": true, "png": true,
	"jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "css": true, "js": true,
}

// Complete turns a typed address into a URL, as a browser does. It is
// the one reading of an address for --url, the UI's go-to prompt and
// the agent's dom_navigate.
//   - A URL with a scheme is kept ("about:blank", "view-source:…").
//   - With a current page (base, http, https or file), a path
//     ("/a", "./a", "products.html", "?q=1", "#top") resolves against
//     it, as the page's own links do.
//   - Loopback, IP addresses and hosts with a port get http://:
//     development servers rarely speak TLS.
//   - Any other dotted host name gets https://.
//   - Without a page, an absolute path is a file.
//
// It fails on an empty address, and on a relative one with no page.
func Complete(typed, base string) (string, error) {
	s := strings.TrimSpace(typed)
	if s == "" {
		return "", errors.New("no address given")
	}
	if HasScheme(s) {
		return s, nil
	}
	b := hierarchical(base)
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = strings.Trim(host, "[]"), ""
	}
	low := strings.ToLower(name)
	switch {
	case host == "" || strings.HasPrefix(s, "."):
		// "/a", "?q", "#top", "./a", "../a"
		if b != nil {
			return resolve(b, s)
		}
		if strings.HasPrefix(s, "/") {
			return "file://" + s, nil
		}
		return "", fmt.Errorf("%q: %w: give a full URL such as https://example.com/", s, ErrRelative)
	case port != "" || low == "localhost" || strings.HasSuffix(low, ".localhost") || net.ParseIP(name) != nil:
		return "http://" + s, nil
	case hostLike(low):
		return "https://" + s, nil
	case b != nil:
		return resolve(b, s)
	}
	return "", fmt.Errorf("%q: %w (or is not a host name): give a full URL such as https://%s/", s, ErrRelative, s)
}

// HasScheme reports whether s starts with "scheme:". A colon followed by
// a port ("localhost:3000", "example.com:8443/a") is a host's.
func HasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		if !SchemeChar(s[j], j == 0) {
			return false
		}
	}
	rest := s[i+1:]
	if k := strings.IndexAny(rest, "/?#"); k >= 0 {
		rest = rest[:k]
	}
	if rest == "" {
		return strings.HasPrefix(s[i+1:], "/") || i+1 == len(s) && !strings.Contains(s[:i], ".")
	}
	for _, c := range []byte(rest) {
		if c < '0' || c > '9' {
			return true
		}
	}
	return false // a port
}

// hostLike reports whether name reads as an internet host name: dotted,
// with a last label of letters that is not a file's ending.
func hostLike(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 {
		return false
	}
	tld := name[i+1:]
	if fileExts[tld] {
		return false
	}
	for _, c := range []byte(tld) {
		if (c < 'a' || c > 'z') && c != '-' && c < 0x80 {
			return false
		}
	}
	return true
}

// hierarchical is base parsed if relative addresses resolve against it.
func hierarchical(base string) *url.URL {
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "file":
		return u
	}
	return nil
}

func resolve(base *url.URL, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("%q: %w", ref, err)
	}
	return base.ResolveReference(r).String(), nil
}
