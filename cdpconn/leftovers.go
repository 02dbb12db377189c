package cdpconn

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A temporary profile is named profilePrefix+random and holds ownerFile.
// That is the pid (and start time, where known) of the domscope that made
// it. A domscope killed with SIGKILL cannot remove its profile. So each
// Launch removes the profiles whose owner is gone. First it kills any
// browser process still using them. It finds those by their
// --user-data-dir argument, as chromedp's allocator does.
const (
	profilePrefix = "domscope-chrome-"
	ownerFile     = "domscope.owner"
	// orphanAge is how old a profile without an owner file must be to
	// count as left over. Such a profile is from an older domscope, or
	// just being made.
	orphanAge = 10 * time.Minute
)

// writeOwner records this process as the owner of dir.
func writeOwner(dir string) error {
	pid := os.Getpid()
	start, _ := processStart(pid)
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(fmt.Sprintf("%d %s\n", pid, start)), 0o600)
}

// ownerGone reports whether the profile dir is left over. Either its
// owner process is dead, or its pid now belongs to another process. Or
// it has no owner file, is old and no process uses it.
func ownerGone(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		st, serr := os.Stat(dir)
		if serr != nil || time.Since(st.ModTime()) < orphanAge {
			return false
		}
		users, ok := processesUsing(dir)
		return ok && len(users) == 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return false
	}
	if !pidAlive(pid) {
		return true
	}
	// The pid is in use, by the owner unless it was reused since.
	if len(f) > 1 {
		if now, ok := processStart(pid); ok && now != f[1] {
			return true
		}
	}
	return false
}

// cleanLeftovers removes the temporary profiles in tmp whose owner is
// gone. First it kills the browser processes that still use them. It
// returns the directories it removed.
func cleanLeftovers(tmp string) []string {
	dirs, _ := filepath.Glob(filepath.Join(tmp, profilePrefix+"*"))
	var removed []string
	for _, dir := range dirs {
		if st, err := os.Lstat(dir); err != nil || !st.IsDir() || !ownerGone(dir) {
			continue
		}
		killUsers(dir)
		removeSingletonDir(dir)
		if removeAllRetry(dir) == nil && staysGone(dir) {
			removed = append(removed, dir)
		}
	}
	return removed
}

// killUsers kills the processes whose command line names dir as their
// profile. A child can fork as its parent dies, so look a few times.
func killUsers(dir string) {
	for quiet := 0; quiet < 3; {
		users, ok := processesUsing(dir)
		if !ok {
			return
		}
		if len(users) == 0 {
			quiet++
			continue
		}
		quiet = 0
		for _, pid := range users {
			killPid(pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// staysGone removes dir again while it comes back. A dying browser's
// network process, whose command line names no profile, can write its
// state into the profile after the removal and make it again. It
// reports whether dir stayed gone for three looks in a row (at most 2 s).
func staysGone(dir string) bool {
	gone := 0
	for i := 0; i < 20 && gone < 3; i++ {
		time.Sleep(100 * time.Millisecond)
		if _, err := os.Lstat(dir); os.IsNotExist(err) {
			gone++
			continue
		}
		gone = 0
		_ = os.RemoveAll(dir)
	}
	return gone >= 3
}

// removeAllRetry is os.RemoveAll, retried. A dying browser's helpers can
// still write into the profile for a moment.
func removeAllRetry(dir string) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}
