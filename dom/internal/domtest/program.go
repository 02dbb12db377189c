package domtest

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BuildProgram builds the domscope command into a temporary folder. It is
// for tests that check what the program itself prints and writes.
func BuildProgram(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "domscope")
	if out, err := exec.Command("go", "build", "-o", bin, "domscope").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// RunProgram runs bin with args and returns its stdout and stderr
// together. A failed run is a test error.
func RunProgram(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		t.Errorf("domscope %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
