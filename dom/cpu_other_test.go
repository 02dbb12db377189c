//go:build !linux

package dom_test

import "time"

func browserCPUTime(int) (time.Duration, bool) { return 0, false }
