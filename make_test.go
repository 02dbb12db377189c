package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// make install puts domscope and domscope-engine in $GOBIN, else
// ~/.local/bin.
func TestMakeInstallDir(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	home := t.TempDir()
	for gobin, want := range map[string]string{"/opt/gobin": "/opt/gobin/domscope", "": home + "/.local/bin/domscope"} {
		cmd := exec.Command("make", "-n", "install")
		cmd.Env = append(os.Environ(), "GOBIN="+gobin, "HOME="+home, "GOENV=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n install: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "install -m 0755 domscope '"+want+"'") || !strings.Contains(string(out), "installed ") {
			t.Errorf("GOBIN=%q: make install does not install to %s and say so:\n%s", gobin, want, out)
		}
		// The front runs the engine beside it.
		if !strings.Contains(string(out), "install -m 0755 domscope-engine '"+want+"-engine'") {
			t.Errorf("GOBIN=%q: make install does not put domscope-engine beside %s:\n%s", gobin, want, out)
		}
	}
}
