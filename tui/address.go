package tui

import (
	"net"
	"strings"
)

// keptSchemes are the schemes an address keeps as typed. Anything else
// before a colon ("localhost:3000") is a host and its port.
var keptSchemes = map[string]bool{
	"http": true, "https": true, "file": true, "data": true, "about": true, "chrome": true,
	"chrome-extension": true, "view-source": true, "blob": true, "ws": true, "wss": true,
}

// address turns what was typed into the go-to prompt into a URL. It does
// so the way a browser's address bar does:
//   - a URL with a known scheme is kept.
//   - a path is a file.
//   - loopback, IP addresses and hosts given with a port get http://.
//     Development servers rarely speak TLS.
//   - any other bare host gets https://.
func address(typed string) string {
	s := strings.TrimSpace(typed)
	if s == "" {
		return ""
	}
	if strings.Contains(s, "://") {
		return s
	}
	if i := strings.IndexByte(s, ':'); i > 0 && keptSchemes[strings.ToLower(s[:i])] {
		return s
	}
	if strings.HasPrefix(s, "/") {
		return "file://" + s
	}
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = strings.Trim(host, "[]"), ""
	}
	if port != "" || strings.EqualFold(name, "localhost") || strings.HasSuffix(strings.ToLower(name), ".localhost") || net.ParseIP(name) != nil {
		return "http://" + s
	}
	return "https://" + s
}
