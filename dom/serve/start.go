package serve

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"

	"domscope/dom"
	"domscope/dom/serve/sock"
)

// LogPath is the log of the server Start starts for endpoint, beside
// its socket.
func LogPath(endpoint string) string { return sock.LogPath(endpoint) }

// Start starts `exe serve args…` detached from this process (its own
// session, stdio to its log), and waits until it listens at path or ctx
// ends. Another server starting at once is no error: one of them wins.
func Start(ctx context.Context, exe string, args []string, path, logPath string) error {
	if err := sock.PrivateDir(Dir(), true); err != nil {
		return err
	}
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(exe, append([]string{"serve"}, args...)...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	for {
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return dom.Errorf(dom.Timeout, ctx.Err(), "domscope serve did not start in time: see %s", logPath)
		case <-exited:
			// Lost a race to another server, or failed: see whether one listens.
			if c, err := net.Dial("unix", path); err == nil {
				c.Close()
				return nil
			}
			return dom.Errorf(dom.AttachFailed, nil, "domscope serve did not start: see %s", logPath)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Call asks the server at path to run an agent CLI command. ok is false
// when no server answers there.
func Call(ctx context.Context, path string, req Request) (a Answer, ok bool, err error) {
	req.Op = OpCall
	text, ok, err := Ask(ctx, path, req)
	if !ok || err != nil {
		return a, ok, err
	}
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		return a, false, dom.Errorf(dom.CDPError, err, "domscope serve sent a reply this version cannot read")
	}
	return a, true, nil
}
