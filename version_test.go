package main

import (
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// make build stamps the version from git: `domscope version` and the
// MCP handshake say which commit, not (devel).
func TestMakeBuildStampsVersion(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	want, err := exec.Command("git", "describe", "--tags", "--always", "--dirty").Output()
	if err != nil {
		t.Skip("not a git clone")
	}
	out, err := exec.Command("make", "-n", "build").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n build: %v\n%s", err, out)
	}
	if flag := "-X main.buildVersion=" + strings.TrimSpace(string(want)); !strings.Contains(string(out), flag) {
		t.Errorf("make build does not stamp the version (%s):\n%s", flag, out)
	}
	// Outside git the stamp is left out, not empty.
	out, _ = exec.Command("make", "-n", "build", "VERSION=").CombinedOutput()
	if strings.Contains(string(out), "buildVersion") {
		t.Errorf("an empty VERSION still stamps:\n%s", out)
	}
}

// Without a stamp, the revision Go recorded names the build.
func TestVersionFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	if got := versionOf("", bi, true); got != "devel 0123456789ab+dirty" {
		t.Errorf("versionOf = %q", got)
	}
	if got := versionOf("v1.2.3", bi, true); got != "v1.2.3" {
		t.Errorf("stamped: %q", got)
	}
	if got := versionOf("", nil, false); got != "(unknown version)" {
		t.Errorf("no build info: %q", got)
	}
}
