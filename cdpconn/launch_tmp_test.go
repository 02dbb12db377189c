package cdpconn_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// A launched Chromium makes org.chromium.Chromium.* directories in
// $TMPDIR (its singleton socket) and leaves them when it is killed.
// Close removes the ones it made. $TMPDIR is the test's own, so other
// browsers on the machine do not count.
func TestLaunchLeavesNoTempDirs(t *testing.T) {
	cdptest.SkipShort(t)
	if _, err := cdpconn.FindChrome(); err != nil {
		cdptest.Browser(t) // skips or fails with the shared message
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := 0; i < 2; i++ {
		b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
	left, _ := os.ReadDir(tmp)
	var names []string
	for _, e := range left {
		if strings.Contains(e.Name(), "chromium") || strings.Contains(e.Name(), "Chrome") || strings.HasPrefix(e.Name(), "domscope-chrome-") {
			names = append(names, filepath.Join(tmp, e.Name()))
		}
	}
	if len(names) > 0 {
		t.Errorf("after two launches $TMPDIR holds %d of the browser's directories: %v", len(names), names)
	}
}
