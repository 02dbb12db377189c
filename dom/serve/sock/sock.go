// Package sock is where domscope serve listens and how a client finds it
// safely: the socket paths and their checks. It imports only the
// standard library and dom/urls, so the small front binary can use it.
package sock

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"domscope/dom/urls"
)

// DefaultEndpoint is the endpoint an empty one means (cdpconn's default).
const DefaultEndpoint = urls.DefaultEndpoint

// Dir is where `domscope serve` puts its sockets: a directory only
// this user can open. $XDG_RUNTIME_DIR is per user already.
func Dir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "domscope")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("domscope-%d", os.Getuid()))
}

// NormalEndpoint is endpoint as the socket's name reads it. The ways of
// writing one address give one name: default, scheme, case, slash.
func NormalEndpoint(endpoint string) string {
	e := urls.ExpandEndpoint(endpoint)
	u, err := url.Parse(e)
	if err != nil {
		return e
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if u.Host == "localhost" || strings.HasPrefix(u.Host, "localhost:") {
		u.Host = "127.0.0.1" + strings.TrimPrefix(u.Host, "localhost")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u.String()
}

// SocketPath is the socket of the server for endpoint. It is a hash, so
// a farm's token in the endpoint is not in any file name.
func SocketPath(endpoint string) string {
	sum := sha256.Sum256([]byte(NormalEndpoint(endpoint)))
	return filepath.Join(Dir(), hex.EncodeToString(sum[:8])+".sock")
}

// SessionSocketPath is where the UI serves session's commands for
// endpoint. Like SocketPath, a hash: names may hold any character.
func SessionSocketPath(endpoint, session string) string {
	sum := sha256.Sum256([]byte(NormalEndpoint(endpoint) + "\x00" + session))
	return filepath.Join(Dir(), "ui-"+hex.EncodeToString(sum[:8])+".sock")
}

// LogPath is the log of the server a client starts for endpoint,
// beside its socket.
func LogPath(endpoint string) string {
	return strings.TrimSuffix(SocketPath(endpoint), ".sock") + ".log"
}

// Loopback reports whether endpoint is on this machine. Another one
// needs --allow-remote, which the direct path checks.
func Loopback(endpoint string) bool {
	u, err := url.Parse(NormalEndpoint(endpoint))
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// PrivateDir makes dir if create is set and checks that only this user
// can use it. A directory someone else owns, or others can enter, is
// refused: its socket could be anyone's.
func PrivateDir(dir string, create bool) error {
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("cannot make the socket directory: %w", err)
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is not a directory of yours: remove it, or set XDG_RUNTIME_DIR", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if !create {
			return fmt.Errorf("%s is open to other users", dir)
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("cannot make %s private: %w", dir, err)
		}
	}
	return nil
}

// OurSocket checks that path is a socket of this user's, not a link to
// one elsewhere or someone else's, before a client trusts it.
func OurSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if fi.Mode().Type() != os.ModeSocket || !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is not a socket of yours", path)
	}
	return nil
}

// Safe reports whether a client may trust the socket at path: its
// directory is private and it is this user's socket.
func Safe(path string) bool {
	return PrivateDir(filepath.Dir(path), false) == nil && OurSocket(path) == nil
}
