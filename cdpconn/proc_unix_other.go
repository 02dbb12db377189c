//go:build unix && !linux

package cdpconn

import "syscall"

func setDeathSignal(*syscall.SysProcAttr) {}

// processStart is unknown here. A reused pid keeps a profile, the safe
// side.
func processStart(int) (string, bool) { return "", false }

// processesUsing cannot look at other processes' arguments here.
func processesUsing(string) ([]int, bool) { return nil, false }
