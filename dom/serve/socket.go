package serve

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

// privateDir makes dir if needed and checks that only this user can
// use it. A directory someone else owns, or others can enter, is
// refused: its socket could be anyone's.
func privateDir(dir string, create bool) error {
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

// ourSocket checks that path is a socket of this user's, not a link to
// one elsewhere or someone else's, before a client trusts it.
func ourSocket(path string) error {
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

// Listen listens on path with mode 0600. A live server already
// there is an error; a stale socket file is replaced. The lock beside
// the socket, held until stop, keeps two servers starting at once from
// taking each other's socket.
func Listen(path string) (ln *net.UnixListener, stop func(), err error) {
	if err := privateDir(filepath.Dir(path), true); err != nil {
		return nil, nil, err
	}
	busy := fmt.Errorf("another domscope serve is running for this endpoint (%s): stop it first", path)
	lock, err := lockFile(path+".lock", busy)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			lock.Close()
		}
	}()
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return nil, nil, busy
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != os.ModeSocket {
			return nil, nil, fmt.Errorf("%s is in the way and is no socket: remove it", path)
		}
		_ = os.Remove(path) // stale: its server is gone
	}
	// The umask covers the moment between bind and chmod.
	old := syscall.Umask(0o177)
	ln, err = net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		return nil, nil, err
	}
	if err = os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, nil, err
	}
	// The lock file goes while still locked: lockFile retries a file
	// removed under it, so two servers never hold two files of one name.
	stop = func() {
		ln.Close() // removes the socket
		_ = os.Remove(lock.Name())
		lock.Close()
	}
	return ln, stop, nil
}

// lockFile opens and locks path, or answers busy if another process
// holds it. A holder removes the file as it stops. So a lock won on a
// file no longer at path is let go, and the new file is tried.
func lockFile(path string, busy error) (*os.File, error) {
	for range 20 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			return nil, busy
		}
		var held, now syscall.Stat_t
		if syscall.Fstat(int(f.Fd()), &held) == nil && syscall.Stat(path, &now) == nil &&
			held.Dev == now.Dev && held.Ino == now.Ino {
			return f, nil
		}
		f.Close()
	}
	return nil, busy
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
