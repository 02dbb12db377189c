package cdpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/urls"
)

// DefaultEndpoint is where Chrome listens when started with
// --remote-debugging-port=9222.
const DefaultEndpoint = urls.DefaultEndpoint

// versionTimeout bounds the request to /json/version. A dead or wrong
// endpoint must fail fast, never hang.
const versionTimeout = 5 * time.Second

// resolveEndpoint turns an endpoint into the browser's websocket URL:
//   - http://host:port, host:port or ws://host:port: a browser started with
//     --remote-debugging-port. It asks /json/version for the URL.
//   - any other ws(s):// URL is used as given, path and query. It may be a
//     browser's /devtools/browser/<id> socket. Or it may be a hosted
//     browser farm's URL with its token: ws://host:3000/?token=….
//   - an http(s):// URL with a path or a query asks path/json/version with
//     that query. The query goes on the websocket URL it answers too.
//
// It refuses a non-loopback host unless allowRemote is set.
func resolveEndpoint(ctx context.Context, endpoint string, allowRemote bool) (string, error) {
	endpoint, u, err := endpointURL(endpoint)
	if err != nil || u.Host == "" {
		return "", dom.Errorf(dom.AttachFailed, nil, "invalid endpoint %q: want http://host:port or ws://host:port/devtools/browser/<id>", Redact(endpoint))
	}
	if !isLoopback(u.Hostname()) && !allowRemote {
		return "", dom.Errorf(dom.AttachFailed, nil,
			"refusing non-loopback endpoint %s: a CDP port is full control of a browser; pass --allow-remote to connect anyway", u.Host)
	}
	switch u.Scheme {
	case "ws", "wss":
		if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return endpoint, nil
		}
		// ws://host:port: Chrome's socket path holds the browser's id.
		// Only the HTTP side knows it.
		hu := *u
		hu.Scheme = "http"
		if u.Scheme == "wss" {
			hu.Scheme = "https"
		}
		ws, err := fetchWebSocketURL(ctx, &hu)
		if errors.Is(err, errNotDevTools) {
			// Something answered that is no Chrome. It may be a farm that
			// serves its socket at the root. Dialling it says what is wrong.
			return endpoint, nil
		}
		return ws, err
	case "http", "https":
	default:
		return "", dom.Errorf(dom.AttachFailed, nil, "invalid endpoint %q: scheme must be http, https, ws or wss", Redact(endpoint))
	}
	return fetchWebSocketURL(ctx, u)
}

// errNotDevTools is the cause when an HTTP endpoint answers, but not as
// Chrome's /json/version does.
var errNotDevTools = errors.New("no webSocketDebuggerUrl")

// fetchWebSocketURL asks the endpoint's /json/version for the browser's
// websocket URL. It asks under the endpoint's path, with its query. It
// points the answer at the host the user gave. Chrome reports its own
// idea of its address, which is wrong behind a port forward. It adds the
// endpoint's query, which may be a farm's token.
func fetchWebSocketURL(parent context.Context, u *url.URL) (string, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(parent, versionTimeout)
	defer cancel()
	base := u.Scheme + "://" + u.Host
	vu := *u
	vu.User, vu.Fragment, vu.RawFragment = nil, "", ""
	vu.Path = strings.TrimSuffix(u.Path, "/") + "/json/version"
	vu.RawPath = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, vu.String(), nil)
	if err != nil {
		return "", dom.Errorf(dom.AttachFailed, err, "invalid endpoint %s", base)
	}
	if u.User != nil {
		p, _ := u.User.Password()
		req.SetBasicAuth(u.User.Username(), p)
	}
	// The request as messages show it: its path, with the query's values
	// hidden.
	shown := vu.EscapedPath()
	if vu.RawQuery != "" {
		shown += "?" + redactQuery(vu.RawQuery)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil && errors.Is(err, context.DeadlineExceeded) && listening(u.Host) {
		// Something accepts connections there. A browser that does not
		// answer is not a missing one.
		return "", notAnswering(dom.AttachFailed, "the browser at "+base, "GET "+shown, time.Since(start), nil)
	}
	if err != nil {
		msg := "no browser at " + base
		var op *net.OpError
		cause := err
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			msg += fmt.Sprintf(" (no answer in %s)", versionTimeout)
			cause = nil
		case errors.As(err, &op) && strings.Contains(op.Error(), "refused"):
			msg += " (connection refused)"
			cause = nil
		}
		// A classified cause is said in msg. An unknown one is appended.
		return "", dom.Errorf(dom.AttachFailed, cause,
			"%s: start Chrome with --remote-debugging-port=%s, or use --launch", msg, portOf(u))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", dom.Errorf(dom.AttachFailed, err, "reading %s", shown)
	}
	if refused(resp.StatusCode) {
		return "", dom.Errorf(dom.AttachFailed, nil,
			"%s refused GET %s (%s): check the token or key in the endpoint", base, shown, resp.Status)
	}
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil || v.WebSocketDebuggerURL == "" {
		return "", dom.Errorf(dom.AttachFailed, errNotDevTools,
			"%s is not a Chrome DevTools endpoint (GET %s: %s)", base, shown, resp.Status)
	}
	ws, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil {
		return "", dom.Errorf(dom.AttachFailed, nil, "%s reported a bad websocket URL %q", base, Redact(v.WebSocketDebuggerURL))
	}
	ws.Host = u.Host
	if u.Scheme == "https" {
		ws.Scheme = "wss"
	}
	ws.User = u.User
	ws.RawQuery = mergeQuery(ws.RawQuery, u.RawQuery)
	return ws.String(), nil
}

// refused reports an HTTP status that means "not with these credentials".
func refused(status int) bool {
	return status == http.StatusUnauthorized || status == http.StatusForbidden
}

// mergeQuery is query a with the parameters of b that a lacks, both raw.
func mergeQuery(a, b string) string {
	if b == "" {
		return a
	}
	have := map[string]bool{}
	for _, kv := range strings.Split(a, "&") {
		k, _, _ := strings.Cut(kv, "=")
		have[k] = true
	}
	out := a
	for _, kv := range strings.Split(b, "&") {
		k, _, _ := strings.Cut(kv, "=")
		if kv == "" || have[k] {
			continue
		}
		if out != "" {
			out += "&"
		}
		out += kv
	}
	return out
}

// listening reports whether host:port accepts a TCP connection.
func listening(hostport string) bool {
	c, err := net.DialTimeout("tcp", hostport, time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return "9222"
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// endpointURL is endpoint with the default for an empty one and http://
// for a bare host:port, and its parse.
func endpointURL(endpoint string) (string, *url.URL, error) {
	endpoint = ExpandEndpoint(endpoint)
	u, err := url.Parse(endpoint)
	return endpoint, u, err
}

// ExpandEndpoint is endpoint as a URL (urls.ExpandEndpoint).
func ExpandEndpoint(endpoint string) string { return urls.ExpandEndpoint(endpoint) }
