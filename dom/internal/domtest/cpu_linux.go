//go:build linux

package domtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// BrowserCPUTime is the CPU time used so far by this process and the
// browser's process group. That group is the browser, its renderers and
// helpers. Unlike wall-clock time it hardly changes when other programs
// load the machine. So it compares the work of two ways of capturing.
func BrowserCPUTime(browserPID int) (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	total := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	if browserPID <= 0 {
		return total, false
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// Fields after the command name (which may hold spaces) in ")".
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		// state ppid pgrp ... utime(12) stime(13) counted from state = 0
		if len(fields) < 13 {
			continue
		}
		if pgrp, _ := strconv.Atoi(fields[2]); pgrp != browserPID {
			continue
		}
		ut, _ := strconv.ParseInt(fields[11], 10, 64)
		st, _ := strconv.ParseInt(fields[12], 10, 64)
		total += time.Duration(ut+st) * tick
	}
	return total, true
}
