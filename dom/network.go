package dom

import "strings"

// NetworkRequest is one request an action started, as its ActionResult
// lists it. Only the method, the URL with its query values redacted and
// the outcome are kept: never headers (cookies, Authorization), bodies or
// query values, which carry tokens and personal data.
type NetworkRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the HTTP status of the response (0 when none came).
	Status int `json:"status"`
	// Ms is how long the request took, or has been under way when it is
	// still pending at settle.
	Ms float64 `json:"ms"`
	// Failed is set when the request failed (network error, blocked,
	// canceled); Error is the browser's reason ("net::ERR_CONNECTION_REFUSED").
	Failed bool   `json:"failed,omitempty"`
	Error  string `json:"error,omitempty"`
	// Pending is set when no response had finished when the page settled.
	Pending bool `json:"pending,omitempty"`
	// Type is the browser's resource type: Document, XHR, Fetch, Script…
	Type string `json:"type,omitempty"`
}

// Redacted is what replaces a query value or user info in a listed URL.
const Redacted = "…"

// RedactURL keeps a URL's scheme, host, path and query keys and replaces
// every query value, the user info and the fragment: "?q=shoes&page=2"
// becomes "?q=…&page=…". A query part with no "=" could be a bare token,
// so it is replaced whole. Data URLs keep only their media type.
func RedactURL(u string) string {
	if rest, ok := cutPrefixFold(u, "data:"); ok {
		mt, _, _ := strings.Cut(rest, ",")
		return "data:" + mt + "," + Redacted
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	// user:password@host: drop the user info.
	if i := strings.Index(u, "://"); i >= 0 {
		hostStart := i + 3
		end := len(u)
		if j := strings.IndexAny(u[hostStart:], "/?"); j >= 0 {
			end = hostStart + j
		}
		if at := strings.LastIndexByte(u[hostStart:end], '@'); at >= 0 {
			u = u[:hostStart] + Redacted + "@" + u[hostStart+at+1:]
		}
	}
	base, query, ok := strings.Cut(u, "?")
	if !ok {
		return u
	}
	if query == "" {
		return base + "?"
	}
	parts := strings.Split(query, "&")
	for i, p := range parts {
		if p == "" {
			continue
		}
		if k, _, hasValue := strings.Cut(p, "="); hasValue {
			parts[i] = k + "=" + Redacted
		} else {
			parts[i] = Redacted
		}
	}
	return base + "?" + strings.Join(parts, "&")
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
