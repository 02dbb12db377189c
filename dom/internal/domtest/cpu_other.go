//go:build !linux

package domtest

import "time"

// BrowserCPUTime is unknown off Linux.
func BrowserCPUTime(int) (time.Duration, bool) { return 0, false }
