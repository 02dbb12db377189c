package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions guard the streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN, or ?token=TOKEN in the URL). Others
	// get 401.
	Token string
	// AllowRemote lets requests from other hosts in. The listener decides
	// where it listens (see CheckListen). The Origin check holds anyway.
	AllowRemote bool
	// Listen is the address the endpoint listens on. Its host is one the
	// Host header may name.
	Listen string
	// AllowedHosts are more names the Host header may give (--allowed-hosts).
	AllowedHosts []string
	// SessionTimeout ends a session idle this long (default 30 min).
	SessionTimeout time.Duration
	// MaxSessions bounds the live sessions (default 64). A new one past it
	// is refused with 503 until one ends.
	MaxSessions int
	// BodyTimeout bounds the reading of a request's body (default 30 s).
	BodyTimeout time.Duration
}

// Path is where the HTTP endpoint is served.
const Path = "/mcp"

// The endpoint's limits, unless HTTPOptions say otherwise.
const (
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxSessions    = 64
	DefaultBodyTimeout    = 30 * time.Second
	// maxBody bounds a request's body, as the SDK does by default.
	maxBody = sdk.DefaultMaxRequestBodyBytes
)

// Handler serves the server over streamable HTTP at Path. A browser page
// must not drive it (DNS rebinding, a page's fetch to localhost). So a
// request whose Host is not on the allow-list, or whose Origin is neither
// loopback nor the server's own host, gets 403.
func (s *Server) Handler(o HTTPOptions) http.Handler {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv }, &sdk.StreamableHTTPOptions{
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: maxBody,
	})
	var next http.Handler = s.sessionCap(h, o)
	if o.Token != "" {
		want := []byte(o.Token)
		verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(token), want) != 1 {
				return nil, fmt.Errorf("wrong bearer token: %w", auth.ErrInvalidToken)
			}
			return &auth.TokenInfo{}, nil
		}
		next = queryToken(auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next))
	}
	mux := http.NewServeMux()
	mux.Handle(Path, hostCheck(o, originCheck(readBody(next, o.BodyTimeout))))
	return mux
}

// NewHTTPServer is an http.Server for h whose reads cannot hang: the
// headers must come within 10 s, and an idle connection ends after 2 min.
// Handler bounds the body's read itself, since a read deadline on the
// whole connection would also end the long-lived event streams.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
}

// NewToken is a random bearer token, for an endpoint started without one.
func NewToken() string {
	return rand.Text()
}

// queryToken lets a client that takes only a URL carry the token in it
// (?token=…), as Jupyter's does.
func queryToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t := r.URL.Query().Get("token"); t != "" && r.Header.Get("Authorization") == "" {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+t)
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads a request's body within timeout, and at most maxBody
// bytes. A body that never ends gets 408, one too long 413.
func readBody(next http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		deadline := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if deadline {
			_ = rc.SetReadDeadline(time.Time{})
		}
		var tooLong *http.MaxBytesError
		switch {
		case errors.As(err, &tooLong):
			http.Error(w, fmt.Sprintf("the request body is longer than %d bytes", maxBody), http.StatusRequestEntityTooLarge)
			return
		case err != nil:
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("the request body did not arrive within %s: %v", timeout, err), http.StatusRequestTimeout)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// sessionCap refuses a new session (a POST without Mcp-Session-Id) while
// max are live. Idle ones end after the session timeout.
func (s *Server) sessionCap(next http.Handler, o HTTPOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			n := 0
			for range s.srv.Sessions() {
				n++
			}
			if n >= o.MaxSessions {
				http.Error(w, fmt.Sprintf("Service Unavailable: %d MCP sessions are open, the most this server keeps; end one (DELETE %s with its Mcp-Session-Id) or wait: a session idle for %s ends", n, Path, o.SessionTimeout), http.StatusServiceUnavailable)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// hostCheck answers 403 to a request whose Host header names a host not
// on the allow-list: loopback names, the listen host, --allowed-hosts.
// An IP address passes: DNS rebinding needs a name.
func hostCheck(o HTTPOptions, next http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, h := range o.AllowedHosts {
		allowed[strings.ToLower(strings.TrimSpace(h))] = true
	}
	if host, _, err := net.SplitHostPort(o.Listen); err == nil && host != "" {
		allowed[strings.ToLower(host)] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.ToLower(strings.Trim(host, "[]"))
		if !isLoopback(host) && net.ParseIP(host) == nil && !allowed[host] {
			http.Error(w, fmt.Sprintf("Forbidden: Host %q is not one this server answers to (a DNS-rebinding page?); add it with --allowed-hosts if it is yours", r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// originCheck answers 403 to a request from a foreign origin. Only pages
// of loopback hosts, or of the host the request was sent to, may call.
// A request without Origin (not from a browser page) passes.
func originCheck(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !allowedOrigin(o, r.Host) {
			http.Error(w, "Forbidden: requests from origin "+o+" are refused (domscope mcp accepts pages of loopback hosts only)", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	return isLoopback(u.Hostname())
}

// IsLoopback reports whether host names this machine only.
func IsLoopback(host string) bool { return isLoopback(host) }

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckListen refuses a listen address that is not loopback, unless
// allowRemote. The endpoint is full control of a browser.
func CheckListen(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: give HOST:PORT, such as 127.0.0.1:8931", addr)
	}
	if allowRemote || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("--http %q listens beyond this machine: an agent there gets full control of the browser; add --allow-remote if that is what you want", addr)
}
