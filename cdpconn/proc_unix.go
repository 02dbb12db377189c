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
