package mcp

import (
	"context"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions guard the streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN). Others get 401.
	Token string
	// AllowRemote lets requests from other hosts in. The listener decides
	// where it listens (see CheckListen). The Origin check holds anyway.
	AllowRemote bool
}

// Path is where the HTTP endpoint is served.
const Path = "/mcp"

// Handler serves the server over streamable HTTP at Path. A browser page
// must not drive it (DNS rebinding, a page's fetch to localhost). So a
// request whose Origin is neither loopback nor the server's own host gets
// 403. A loopback listener refuses a foreign Host header (the SDK's own
// check).
func (s *Server) Handler(o HTTPOptions) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv }, nil)
	var next http.Handler = h
	if o.Token != "" {
		want := []byte(o.Token)
		verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(token), want) != 1 {
				return nil, fmt.Errorf("wrong bearer token: %w", auth.ErrInvalidToken)
			}
			return &auth.TokenInfo{}, nil
		}
		next = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	}
	mux := http.NewServeMux()
	mux.Handle(Path, originCheck(next))
	return mux
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

// isLoopback reports whether host names this machine only.
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
