package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	frontOnce sync.Once
	frontDir  string
	frontErr  error
)

// builtFront builds the two programs as make build does, once: the
// front as domscope, the root package as domscope-engine beside it.
func builtFront(t *testing.T) (front, engine string) {
	t.Helper()
	frontOnce.Do(func() {
		dir, err := os.MkdirTemp("", "domscope-front-bin")
		if err != nil {
			frontErr = err
			return
		}
		frontDir = dir
		for _, b := range [][2]string{{"domscope", "domscope/tui/front"}, {"domscope-engine", "domscope"}} {
			if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, b[0]), b[1]).CombinedOutput(); err != nil {
				frontErr = &buildError{err, string(out)}
				return
			}
		}
	})
	if frontErr != nil {
		t.Fatalf("go build: %v", frontErr)
	}
	return filepath.Join(frontDir, "domscope"), filepath.Join(frontDir, "domscope-engine")
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

var (
	timingRE = regexp.MustCompile(`"(duration|ms)": [0-9.]+`)
	tabIDRE  = regexp.MustCompile(`[0-9A-F]{32}`)
)

// untimed is a JSON answer without its moment, timings and tab ids.
func untimed(s string) string {
	return tabIDRE.ReplaceAllString(timingRE.ReplaceAllString(unstamped(s), `"$1": 0`), "TAB")
}

// argvLines counts the service's log lines for the front's requests.
func argvLines(log string) int { return strings.Count(log, "domscope serve: argv: ") }

// awaitArgv waits until the service's log has n argv lines: it writes
// each after its reply. It returns the count it saw last.
func (e *agentEnv) awaitArgv(n int) int {
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := argvLines(e.serviceLog())
		if got >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFrontSameAsEngine: the front prints what the engine prints for the
// same command, byte for byte, with its exit code; after the first
// command (no service yet: the engine runs and starts one) each takes
// the service's argv path. A screenshot lands beside the client, and a
// typed password is in no output and not in the service's log.
func TestFrontSameAsEngine(t *testing.T) {
	front, engineBin := builtFront(t)
	e := newAgentEnvOf(t, front)
	eng := *e
	eng.bin = engineBin
	e.cwd, eng.cwd = t.TempDir(), t.TempDir()
	url := e.base + "/serve/secret.html"

	out := e.ok("goto", url, "--session", "f")
	if !strings.Contains(out, `navigated to "Sign in"`) {
		t.Fatalf("goto answered:\n%s", out)
	}
	if n := argvLines(e.serviceLog()); n != 0 {
		t.Fatalf("with no service running, the first command was sent as a command line (%d):\n%s", n, e.serviceLog())
	}
	eng.ok("goto", url, "--session", "g")
	// The service runs where the first command ran: the screenshot
	// must land where the later client runs, elsewhere.
	e.cwd = t.TempDir()
	defer e.ok("close", "--session", "f")
	defer eng.ok("close", "--session", "g")
	view := e.ok("snapshot", "-i", "--session", "f")
	if want := eng.ok("snapshot", "-i", "--session", "g"); want != view {
		t.Errorf("snapshot -i: the front printed\n%s\nthe engine\n%s", view, want)
	}
	pw, show := viewID(t, view, `textbox "Password"`), viewID(t, view, `button "Password"`)
	const secret = "HUNTER2front"
	steps := [][]string{
		{"goto", url},
		{"click", show},
		{"type", pw, secret, "--steps"},
		{"type", pw, secret, "--json"},
		{"snapshot", "--format", "json"},
		{"click", "999"}, // fails: exit 1, the code on stderr
		{"click"},        // usage: exit 2
		{"screenshot", "rel.png"},
	}
	var outs []string
	for _, args := range steps {
		before := argvLines(e.serviceLog())
		fo, fe, fc := e.run(append(args, "--session", "f")...)
		eo, ee, ec := eng.run(append(args, "--session", "g")...)
		if args[0] == "snapshot" || args[len(args)-1] == "--json" {
			// Two tabs, two moments: their ids and timings differ.
			fo, eo = untimed(fo), untimed(eo)
		}
		if fo != eo || fe != ee || fc != ec {
			t.Errorf("%v: the front printed (exit %d)\n%s%s\nthe engine (exit %d)\n%s%s", args, fc, fo, fe, ec, eo, ee)
		}
		if after := e.awaitArgv(before + 1); after != before+1 {
			t.Errorf("%v: the service has %d argv lines, want %d: the front did not send it", args, after, before+1)
		}
		outs = append(outs, fo+fe)
	}
	if !strings.Contains(outs[2], "••••") {
		t.Errorf("type --steps into the password field answered:\n%s", outs[2])
	}
	for _, dir := range []string{e.cwd, eng.cwd} {
		b, err := os.ReadFile(filepath.Join(dir, "rel.png"))
		if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("screenshot rel.png is not a PNG in the client's directory %s: %v", dir, err)
		}
	}
	e.awaitArgv(len(steps))
	log := e.serviceLog()
	for i, s := range append(outs, log) {
		if strings.Contains(s, secret) || strings.Contains(s, "HUNTER") {
			t.Errorf("output %d holds the typed password:\n%s", i, s)
		}
	}
	if !strings.Contains(log, `argv: type (session "f") → ok`) {
		t.Errorf("the service's log has no argv line for the typing:\n%s", log)
	}
	// The service runs the line's call itself: no second request over
	// its socket. Only the first goto (the engine's) came that way.
	n := 0
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `(session "f")`) && !strings.Contains(line, "argv: ") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d requests of session f came over the socket, want 1 (the first goto):\n%s", n, log)
	}
}

// TestFrontFallbacks: help is the engine's; an engine that is missing is
// one clear error; a session in the service's own environment (from the
// client that started it) is never another call's.
func TestFrontFallbacks(t *testing.T) {
	front, engineBin := builtFront(t)
	e := newAgentEnvOf(t, front)
	eng := *e
	eng.bin = engineBin

	fo, fe, fc := e.run("click", "--help")
	eo, ee, ec := eng.run("click", "--help")
	if fo != eo || fe != ee || fc != ec || !strings.Contains(fo, "Click node ID") {
		t.Errorf("click --help: the front printed (exit %d)\n%s%s\nthe engine (exit %d)\n%s%s", fc, fo, fe, ec, eo, ee)
	}

	lone := *e
	lone.bin = frontAlone(t, front)
	alone := lone.bin
	_, stderr, code := lone.run("click", "1", "--session", "x")
	want := filepath.Join(filepath.Dir(alone), "domscope-engine")
	if code != 2 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "make build") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("without the engine: exit %d, %q; want 2 and one line naming %s and make build", code, stderr, want)
	}

	// The service starts from a client whose session is in its
	// environment only.
	leaky := eng
	leaky.env = []string{"DOMSCOPE_SESSION=leak"}
	leaky.ok("goto", e.base+"/serve/secret.html")
	defer eng.ok("close", "--session", "leak")
	// Without a session, wait acts on --target, which is the leak
	// session's tab: refused. Had the service applied its own
	// DOMSCOPE_SESSION, the wait would act in that session.
	_, stderr, code = e.run("wait", "--url", "secret.html", "--ms", "300", "--target", e.base+"/serve/secret.html")
	if code != 1 || !strings.Contains(stderr, `session "leak"'s`) {
		t.Errorf("wait without a session: exit %d, %q; the service's own DOMSCOPE_SESSION was applied", code, stderr)
	}
	if n := e.awaitArgv(1); n != 1 {
		t.Errorf("the front's calls did not take the argv path (%d lines):\n%s", n, e.serviceLog())
	}
}

// frontAlone is a copy of the front with no engine beside it: what it
// prints, the service answered.
func frontAlone(t *testing.T, front string) string {
	t.Helper()
	alone := filepath.Join(t.TempDir(), "domscope")
	b, err := os.ReadFile(front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return alone
}

// TestFrontWatchedSession: a UI that watches a session answers the
// front's command lines for it, on its own model: the call shows there.
func TestFrontWatchedSession(t *testing.T) {
	front, _ := builtFront(t)
	e := newAgentEnvOf(t, front)
	e.ok("goto", e.base+"/serve/secret.html", "--session", "w", "--idle", "2m")
	a := startAgentUI(t, []string{"--session", "w", "--endpoint", e.ws}, "XDG_RUNTIME_DIR="+e.runDir)
	a.waitText("agent: 0 calls")
	a.waitText(`"Sign in"`)
	lone := *e
	lone.bin = frontAlone(t, front)
	if out := lone.ok("snapshot", "-i", "--session", "w"); !strings.Contains(out, `textbox "Password"`) {
		t.Errorf("snapshot -i in the watched session answered:\n%s", out)
	}
	a.waitText("agent: 1 calls")
	a.keys("q")
	a.waitText("EXIT 0")
	if n := argvLines(e.serviceLog()); n != 0 {
		t.Errorf("the service, not the UI, answered the front:\n%s", e.serviceLog())
	}
	e.ok("close", "--session", "w")
}
