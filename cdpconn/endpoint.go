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
)

// DefaultEndpoint is where Chrome listens when started with
// --remote-debugging-port=9222.
const DefaultEndpoint = "http://127.0.0.1:9222"

// versionTimeout bounds the request to /json/version: a dead or wrong
// endpoint must fail fast, never hang.
const versionTimeout = 5 * time.Second

// resolveEndpoint turns an endpoint (http://host:port, host:port, ws://host:port,
// or a full ws://…/devtools/browser/… URL) into the browser's websocket URL.
// It refuses a non-loopback host unless allowRemote is set.
func resolveEndpoint(ctx context.Context, endpoint string, allowRemote bool) (string, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	if !strings.Contains(endpoint, "://") {
		endpoint = "http://" + endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "", dom.Errorf(dom.AttachFailed, err, "invalid endpoint %q: want http://host:port or ws://host:port/devtools/browser/<id>", endpoint)
	}
	if !isLoopback(u.Hostname()) && !allowRemote {
		return "", dom.Errorf(dom.AttachFailed, nil,
			"refusing non-loopback endpoint %s: a CDP port is full control of a browser; pass --allow-remote to connect anyway", u.Host)
	}
	switch u.Scheme {
	case "ws", "wss":
		if strings.Contains(u.Path, "/devtools/browser/") {
			return u.String(), nil
		}
		// ws://host:port without a browser id: ask the HTTP side.
		if u.Scheme == "ws" {
			u.Scheme = "http"
		} else {
			u.Scheme = "https"
		}
	case "http", "https":
	default:
		return "", dom.Errorf(dom.AttachFailed, nil, "invalid endpoint %q: scheme must be http, https, ws or wss", endpoint)
	}
	return fetchWebSocketURL(ctx, u)
}

// fetchWebSocketURL asks http://host:port/json/version for the browser's
// websocket URL and points it at the host the user gave (Chrome reports its
// own idea of its address, which is wrong behind a port forward).
func fetchWebSocketURL(parent context.Context, u *url.URL) (string, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(parent, versionTimeout)
	defer cancel()
	base := u.Scheme + "://" + u.Host
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/json/version", nil)
	if err != nil {
		return "", dom.Errorf(dom.AttachFailed, err, "invalid endpoint %s", base)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil && errors.Is(err, context.DeadlineExceeded) && listening(u.Host) {
		// Something accepts connections there: a browser that does not
		// answer is not a missing one.
		return "", notAnswering(dom.AttachFailed, "the browser at "+base, "GET /json/version", time.Since(start), nil)
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
		// A classified cause is said in msg; an unknown one is appended.
		return "", dom.Errorf(dom.AttachFailed, cause,
			"%s: start Chrome with --remote-debugging-port=%s, or use --launch", msg, portOf(u))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", dom.Errorf(dom.AttachFailed, err, "reading %s/json/version", base)
	}
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil || v.WebSocketDebuggerURL == "" {
		return "", dom.Errorf(dom.AttachFailed, nil,
			"%s is not a Chrome DevTools endpoint (GET /json/version: %s, no webSocketDebuggerUrl)", base, resp.Status)
	}
	ws, err := url.Parse(v.WebSocketDebuggerURL)
	if err != nil {
		return "", dom.Errorf(dom.AttachFailed, err, "%s reported a bad websocket URL %q", base, v.WebSocketDebuggerURL)
	}
	ws.Host = u.Host
	if u.Scheme == "https" {
		ws.Scheme = "wss"
	}
	return ws.String(), nil
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
