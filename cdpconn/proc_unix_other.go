//go:build unix && !linux

package cdpconn

import "syscall"

func setDeathSignal(*syscall.SysProcAttr) {}
