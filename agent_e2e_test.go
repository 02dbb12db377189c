package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/serve"
)

var (
	agentBinOnce sync.Once
	agentBin     string
	agentBinErr  error
)

// builtBinary is domscope built once for the tests that run it as an
// agent does: each command a process, the service started by the first.
func builtBinary(t *testing.T) string {
	t.Helper()
	agentBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "domscope-agent-bin")
		if err != nil {
			agentBinErr = err
			return
		}
		agentBin = filepath.Join(dir, "domscope")
		if out, err := exec.Command("go", "build", "-o", agentBin, "domscope").CombinedOutput(); err != nil {
			agentBinErr = err
			agentBin = string(out)
		}
	})
	if agentBinErr != nil {
		t.Fatalf("go build: %v: %s", agentBinErr, agentBin)
	}
	return agentBin
}

// agentEnv runs the built binary with a socket directory of the test's
// own. The service the first command starts is stopped when it ends.
type agentEnv struct {
	t      *testing.T
	bin    string
	ws     string
	base   string
	runDir string
	// cwd, when set, is where the commands run; env is added to theirs.
	cwd string
	env []string
}

func newAgentEnv(t *testing.T) *agentEnv {
	t.Helper()
	return newAgentEnvOf(t, builtBinary(t))
}

// newAgentEnvOf runs bin.
func newAgentEnvOf(t *testing.T, bin string) *agentEnv {
	t.Helper()
	e := &agentEnv{t: t, bin: bin, ws: cdptest.Browser(t).WebSocketURL(), runDir: t.TempDir()}
	e.base, _ = cdptest.Serve(t, pages)
	t.Cleanup(e.stopService)
	return e
}

// run runs `domscope args… --endpoint ws`: stdout, stderr, exit code.
func (e *agentEnv) run(args ...string) (string, string, int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, append(args, "--endpoint", e.ws)...)
	cmd.Env = append(append(os.Environ(), "XDG_RUNTIME_DIR="+e.runDir, "DOMSCOPE_SESSION="), e.env...)
	cmd.Dir = e.cwd
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// ok runs a command that must succeed and returns its output.
func (e *agentEnv) ok(args ...string) string {
	e.t.Helper()
	out, stderr, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("%v: exit %d: %s%s", args, code, stderr, out)
	}
	return out
}

// serviceLog is the log of the service the commands started.
func (e *agentEnv) serviceLog() string {
	b, _ := os.ReadFile(filepath.Join(e.runDir, "domscope", filepath.Base(serve.LogPath(e.ws))))
	return string(b)
}

var pidRE = regexp.MustCompile(`listening on .* \(pid (\d+)\)`)

func (e *agentEnv) stopService() {
	m := pidRE.FindStringSubmatch(e.serviceLog())
	if m == nil {
		return
	}
	pid, _ := strconv.Atoi(m[1])
	_ = syscall.Kill(pid, syscall.SIGTERM)
}

// viewID is the id the view gives the line matching re's first group.
func viewID(t *testing.T, view, re string) string {
	t.Helper()
	m := regexp.MustCompile(`\[(\d+)\] ` + re).FindStringSubmatch(view)
	if m == nil {
		t.Fatalf("no line matches %q in:\n%s", re, view)
	}
	return m[1]
}

// TestAgentSessions: the agent commands start the service themselves,
// answer as the MCP tools do, keep each session in its own tab, and exit
// 0 done, 1 failed (code and next: on stderr), 2 usage.
func TestAgentSessions(t *testing.T) {
	e := newAgentEnv(t)
	out := e.ok("goto", e.base+"/serve/secret.html", "--session", "a", "--idle", "2m")
	if !strings.Contains(out, `navigated to "Sign in"`) {
		t.Errorf("goto answered:\n%s", out)
	}
	e.ok("goto", e.base+"/serve/other.html", "--session", "b")
	if out := e.ok("wait", "--url", "OTHER.html", "--session", "b"); !strings.Contains(out, "url: "+e.base+"/serve/other.html") {
		t.Errorf("wait --url answered:\n%s", out)
	}
	if _, stderr, code := e.run("wait", "--url", "nowhere", "--ms", "300", "--session", "b"); code != 1 || !strings.HasPrefix(stderr, "TIMEOUT") {
		t.Errorf("wait --url for an address that never comes: exit %d, %q", code, stderr)
	}
	a := e.ok("snapshot", "--session", "a")
	b := e.ok("snapshot", "--session", "b")
	// The view flags reach the session's view too.
	if i := e.ok("snapshot", "-i", "--session", "a"); i == a || regexp.MustCompile(`\[\d+\] h1`).MatchString(i) {
		t.Errorf("snapshot -i in a session printed the whole view:\n%s", i)
	}
	if !strings.Contains(a, `"Sign in"`) || strings.Contains(b, `"Sign in"`) {
		t.Errorf("the sessions share a tab:\na: %s\nb: %s", a, b)
	}
	// The ids of the session's snapshot are the ones its actions take.
	user := viewID(t, a, `textbox "User"`)
	out = e.ok("type", user, "grace", "--session", "a")
	if !strings.HasPrefix(out, "type ["+user+"]: changed") || !strings.Contains(out, "grace") {
		t.Errorf("type answered:\n%s", out)
	}

	out, stderr, code := e.run("click", "999", "--session", "a")
	if code != 1 || out != "" || !strings.Contains(stderr, "NODE_NOT_FOUND") || !strings.Contains(stderr, "next:") {
		t.Errorf("a click on no node: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if _, stderr, code = e.run("click", "--session", "a"); code != 2 || !strings.Contains(stderr, "usage") {
		t.Errorf("click with no id: exit %d, %q", code, stderr)
	}
	if _, stderr, code = e.run("scroll", "sideways", "--session", "a"); code != 2 {
		t.Errorf("scroll sideways: exit %d, %q", code, stderr)
	}

	e.ok("close", "--session", "a")
	tabs := e.ok("tabs", "--session", "b")
	if strings.Contains(tabs, "secret.html") || !strings.Contains(tabs, "other.html") {
		t.Errorf("after close a, the tabs are:\n%s", tabs)
	}
	// A closed session starts afresh, in a new blank tab.
	if a = e.ok("snapshot", "--session", "a"); strings.Contains(a, "Sign in") {
		t.Errorf("a closed session kept its page:\n%s", a)
	}
}

// TestAgentPrivacy: text typed into a sensitive field is •••• in the
// answer, its JSON, its step, and the script --record writes; no typed
// text at all reaches the service's log.
func TestAgentPrivacy(t *testing.T) {
	e := newAgentEnv(t)
	e.ok("goto", e.base+"/serve/secret.html", "--session", "p")
	view := e.ok("snapshot", "--session", "p")
	pw, user := viewID(t, view, `textbox "Password"`), viewID(t, view, `textbox "User"`)
	script := filepath.Join(t.TempDir(), "steps.jsonl")
	const secret, plain = "HUNTER2secret", "plainGrace"
	var outs []string
	for _, args := range [][]string{
		{"type", pw, secret, "--session", "p", "--steps", "--record", script},
		{"type", pw, secret, "--enter", "--session", "p", "--json"},
		{"type", user, plain, "--session", "p", "--steps"},
		{"snapshot", "--session", "p"},
		{"snapshot", "--session", "p", "--format", "json"},
	} {
		out, stderr, code := e.run(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		outs = append(outs, out+stderr)
	}
	if !strings.Contains(outs[0], `step: {"action":"type"`) || !strings.Contains(outs[0], "••••") {
		t.Errorf("--steps answered:\n%s", outs[0])
	}
	if !strings.Contains(outs[2], plain) {
		t.Errorf("text typed into a plain field is not in its answer:\n%s", outs[2])
	}
	rec, err := os.ReadFile(script)
	if err != nil || !strings.Contains(string(rec), `"action":"type"`) {
		t.Errorf("the recorded script: %v\n%s", err, rec)
	}
	for i, out := range append(outs, string(rec)) {
		if strings.Contains(out, secret) || strings.Contains(out, "HUNTER") {
			t.Errorf("output %d holds the typed password:\n%s", i, out)
		}
	}
	log := e.serviceLog()
	if !strings.Contains(log, `type (session "p") → ok`) {
		t.Errorf("the service's log has no line for the typing:\n%s", log)
	}
	for _, s := range []string{"HUNTER", secret, plain} {
		if strings.Contains(log, s) {
			t.Errorf("the service's log holds typed text %q:\n%s", s, log)
		}
	}
}

// TestGuide: the guide ships in the binary, names its version, and
// covers the loop, sessions, errors and the MCP set-ups.
func TestGuide(t *testing.T) {
	out, _, code := runCLI(t, "", "guide")
	if code != 0 {
		t.Fatalf("guide: exit %d", code)
	}
	for _, want := range []string{"version " + version(), "## The loop", "## Sessions", "NODE_STALE", "claude mcp add", "claude_desktop_config.json", ".cursor/mcp.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("the guide lacks %q", want)
		}
	}
}
