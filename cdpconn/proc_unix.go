//go:build unix

package cdpconn

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the browser in its own process group, so stopping it
// also stops its renderer and helper processes.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

func killProcess(cmd *exec.Cmd) {
	// The group id is the browser's pid (Setpgid above).
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// pidAlive reports whether a process with this pid exists. EPERM means it
// does, as another user's.
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

func killPid(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
