package cdpconn_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// TestLaunchCleansKilledProfile: a program that launched Chromium is
// killed with SIGKILL, so its temporary profile stays behind. The next
// Launch removes it. It kills any browser process still using it first.
func TestLaunchCleansKilledProfile(t *testing.T) {
	cdptest.SkipShort(t)
	if _, err := cdpconn.FindChrome(); err != nil {
		t.Skipf("no Chromium: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOMSCOPE_LAUNCH_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "LAUNCHED ") {
		t.Fatalf("child: %q %v", line, err)
	}
	browserPid, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "LAUNCHED ")))

	// The child's profile: the one whose owner file names the child.
	var dir string
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "domscope-chrome-*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "domscope.owner"))
		if err == nil && strings.HasPrefix(string(b), strconv.Itoa(cmd.Process.Pid)+" ") {
			dir = d
		}
	}
	if dir == "" {
		t.Fatalf("no profile owned by the child (pid %d) among %v", cmd.Process.Pid, dirs)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the killed program's profile is already gone (%v): nothing to test", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the profile of the killed program is still there after the next launch: %s (%v)", dir, err)
	}
	if browserPid > 0 && syscall.Kill(browserPid, 0) == nil {
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(browserPid) + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
			t.Errorf("the killed program's browser (pid %d) still runs", browserPid)
		}
	}
}
