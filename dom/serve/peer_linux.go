package serve

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerIsUs refuses a client run by another user. The socket's mode
// keeps them out already; this holds if its directory is opened up.
func peerIsUs(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket")
	}
	rc, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	cerr := rc.Control(func(fd uintptr) {
		cred, err = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	})
	if cerr != nil {
		return cerr
	}
	if err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("a client of uid %d", cred.Uid)
	}
	return nil
}
