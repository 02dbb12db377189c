//go:build linux

package cdpconn

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// setDeathSignal kills the browser if this program dies without Close.
// A crashed test binary must not leave Chromium running.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// processStart returns the start time of pid, in clock ticks since boot,
// from /proc. It tells a process from a later one with the same pid.
func processStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// The command name (field 2) may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3 // fields after the name start at field 3
	if len(f) <= startField {
		return "", false
	}
	return f[startField], true
}

// processesUsing lists the processes started with --user-data-dir=dir.
func processesUsing(dir string) ([]int, bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	want := []byte("--user-data-dir=" + dir)
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for _, arg := range bytes.Split(cmdline, []byte{0}) {
			if bytes.Equal(arg, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids, true
}
