package serve

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"domscope/dom/serve/sock"
)

// DefaultEndpoint is the endpoint an empty one means (cdpconn's default).
const DefaultEndpoint = sock.DefaultEndpoint

// The socket's place and checks live in sock, which the small front
// binary imports too: one definition for both.

// Dir is where `domscope serve` puts its sockets.
func Dir() string { return sock.Dir() }

// NormalEndpoint is endpoint as the socket's name reads it.
func NormalEndpoint(endpoint string) string { return sock.NormalEndpoint(endpoint) }

// SocketPath is the socket of the server for endpoint.
func SocketPath(endpoint string) string { return sock.SocketPath(endpoint) }

// SessionSocketPath is where the UI serves session's commands for endpoint.
func SessionSocketPath(endpoint, session string) string {
	return sock.SessionSocketPath(endpoint, session)
}

// Loopback reports whether endpoint is on this machine.
func Loopback(endpoint string) bool { return sock.Loopback(endpoint) }

// Listen listens on path with mode 0600. A live server already
// there is an error; a stale socket file is replaced. The lock beside
// the socket, held until stop, keeps two servers starting at once from
// taking each other's socket.
func Listen(path string) (ln *net.UnixListener, stop func(), err error) {
	if err := sock.PrivateDir(filepath.Dir(path), true); err != nil {
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
