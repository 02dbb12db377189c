//go:build linux

package cdpconn

import "syscall"

// setDeathSignal kills the browser if this program dies without Close
// (a crashed test binary must not leave Chromium running).
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
