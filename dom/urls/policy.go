package urls

import (
	"fmt"
	"net/url"
	"strings"
)

// Policy is where an agent may navigate. It guards against a page that
// tells the agent to open a local file or a browser page: a prompt
// injection. It is not a sandbox. It checks the addresses the agent asks
// for, not the requests, redirects or links the page makes.
//
// Allowed and Blocked follow Playwright MCP's --allowed-origins and
// --blocked-origins: a full origin ("https://example.com:8080"), an
// origin with any port ("http://localhost:*"), or a host name alone
// (any scheme and port; "*.example.com" for its subdomains). Blocked is
// read first. An empty Allowed allows every web origin.
type Policy struct {
	Allowed, Blocked []string
	// AllowFile lets the agent open file: URLs (and view-source: of one).
	AllowFile bool
}

// refusedSchemes are browser-internal pages and script URLs. An agent
// never needs them, and some change the browser's settings.
var refusedSchemes = map[string]bool{
	"chrome": true, "chrome-untrusted": true, "chrome-extension": true, "chrome-search": true,
	"devtools": true, "javascript": true, "edge": true, "brave": true,
}

// BlockedError is a navigation the policy refuses.
type BlockedError struct {
	URL    string // as Safe shows it
	Reason string
	// Hint is how the person who runs domscope can allow it.
	Hint string
}

func (e *BlockedError) Error() string { return e.Reason }

// ParseOrigins splits a semicolon-separated list (Playwright MCP's form;
// commas are taken too) and checks each entry.
func ParseOrigins(list string) ([]string, error) {
	var out []string
	for _, o := range strings.FieldsFunc(list, func(r rune) bool { return r == ';' || r == ',' }) {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if strings.Contains(o, "://") {
			u, err := url.Parse(strings.TrimSuffix(o, ":*"))
			if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				return nil, fmt.Errorf("%q is not an origin: write scheme://host[:port], scheme://host:* or a host name", o)
			}
		} else if strings.ContainsAny(o, "/?#@ ") {
			return nil, fmt.Errorf("%q is not an origin: write scheme://host[:port], scheme://host:* or a host name", o)
		}
		out = append(out, strings.TrimSuffix(strings.ToLower(o), "/"))
	}
	return out, nil
}

// Check refuses u if the policy does not let an agent open it.
func (p Policy) Check(u string) error {
	u = browserForm(u)
	safe := clip(Safe(u), 200)
	scheme, rest, ok := strings.Cut(u, ":")
	scheme = strings.ToLower(strings.TrimSpace(scheme))
	if !ok || !HasScheme(u) {
		return nil // Complete gives every address a scheme first
	}
	switch scheme {
	case "view-source", "filesystem", "blob":
		// these wrap a URL; the inner one decides
		if err := p.Check(rest); err != nil {
			be := err.(*BlockedError)
			be.URL = safe
			return be
		}
		return nil
	case "about", "data":
		return nil
	case "file":
		if p.AllowFile {
			return nil
		}
		return &BlockedError{URL: safe, Reason: "an agent may not open local files (" + safe + ")",
			Hint: "open web pages only; the person running domscope can allow files with --allow-file-access"}
	}
	if refusedSchemes[scheme] {
		return &BlockedError{URL: safe, Reason: "an agent may not open browser pages or script URLs (" + safe + ")",
			Hint: "open web pages only (http or https)"}
	}
	pu, err := url.Parse(u)
	if err != nil || pu.Host == "" {
		return nil // not a web origin: the browser answers for it
	}
	for _, o := range p.Blocked {
		if originMatches(o, pu) {
			return &BlockedError{URL: safe, Reason: "the origin of " + safe + " is blocked (--blocked-origins)",
				Hint: "open another site; this one is blocked by the person running domscope"}
		}
	}
	if len(p.Allowed) == 0 {
		return nil
	}
	for _, o := range p.Allowed {
		if originMatches(o, pu) {
			return nil
		}
	}
	return &BlockedError{URL: safe, Reason: "the origin of " + safe + " is not in --allowed-origins",
		Hint: "open a page of an allowed origin: " + strings.Join(p.Allowed, "; ")}
}

// originMatches reports whether entry (ParseOrigins' form) covers u.
func originMatches(entry string, u *url.URL) bool {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	scheme, hostPort, full := strings.Cut(entry, "://")
	if !full {
		return hostMatches(entry, host)
	}
	if scheme != strings.ToLower(u.Scheme) {
		return false
	}
	if h, ok := strings.CutSuffix(hostPort, ":*"); ok {
		return hostMatches(strings.Trim(h, "[]"), host)
	}
	e, err := url.Parse("x://" + hostPort)
	if err != nil {
		return false
	}
	eHost, ePort := strings.ToLower(e.Hostname()), e.Port()
	if ePort == "" {
		ePort = defaultPort(scheme)
	}
	return hostMatches(eHost, host) && ePort == port
}

func hostMatches(pattern, host string) bool {
	if sub, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+sub)
	}
	return pattern == host
}

func defaultPort(scheme string) string {
	switch strings.ToLower(scheme) {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}

// clip cuts s to at most n runes, with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// browserForm is u as a browser reads it before parsing: C0 controls and
// spaces trimmed at the ends, tabs and newlines removed (WHATWG URL).
func browserForm(u string) string {
	u = strings.TrimFunc(u, func(r rune) bool { return r <= ' ' })
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
}
