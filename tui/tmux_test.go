package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/script"
)

// The full-program tests run this test binary as the program, inside a
// real terminal (tmux), attached to the test's shared Chromium.
// DOMSCOPE_TUI_CHILD=1 makes TestMain run the UI instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("DOMSCOPE_TUI_CHILD") != "" {
		os.Exit(child())
	}
	cdptest.Main(m)
}

// child runs the real UI on one page of an existing browser.
func child() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if f := os.Getenv("DOMSCOPE_TUI_FIXTURE"); f != "" {
		// a hand-built tree, for looking at the UI without a browser
		s := formPage("Sign up")
		if f == "big" {
			s = bigPage(50000)
		}
		err := Run(ctx, Config{Actor: newTestActor(s), Theme: os.Getenv("DOMSCOPE_TUI_THEME")})
		fmt.Println("DOMSCOPE-CHILD-EXIT err:", err)
		return 0
	}
	b, err := cdpconn.Connect(ctx, os.Getenv("DOMSCOPE_TUI_WS"), false)
	if err != nil {
		fmt.Println("DOMSCOPE-CHILD connect:", err)
		return 2
	}
	defer b.Close()
	opTimeout = hangGuard                                // a big page is captured slowly on a loaded machine
	octx, ocancel := context.WithTimeout(ctx, hangGuard) // and loads slowly
	p, err := b.OpenPage(octx, os.Getenv("DOMSCOPE_TUI_URL"))
	ocancel()
	if err != nil {
		fmt.Println("DOMSCOPE-CHILD open:", err)
		return 2
	}
	svc := live.NewService(p, serviceConfig())
	opBound, _ := time.ParseDuration(os.Getenv("DOMSCOPE_TUI_OPTIMEOUT"))
	cfg := Config{Actor: svc, Browser: b, Theme: "dark", NoHighlight: os.Getenv("DOMSCOPE_TUI_NOHIGHLIGHT") != "", OpTimeout: opBound,
		NewActor: func(p dom.Page) dom.Actor { return live.NewService(p, serviceConfig()) }, OutputDir: os.Getenv("DOMSCOPE_TUI_OUTDIR")}
	if err := childScript(&cfg); err != nil {
		fmt.Println("DOMSCOPE-CHILD script:", err)
		return 2
	}
	err = Run(ctx, cfg)
	_ = svc.Close()
	_ = p.Detach()
	fmt.Println("DOMSCOPE-CHILD-EXIT err:", err)
	return 0
}

// term is the program running in a tmux pane of its own tmux server.
type term struct {
	t      *testing.T
	socket string
	raw    string // everything the program wrote to the terminal
}

func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// startTerm runs the UI on url in a w×h terminal. extra adds
// environment variables ("NAME=value").
func startTerm(t *testing.T, url string, w, h int, extra ...string) *term {
	t.Helper()
	needTmux(t)
	b := cdptest.Browser(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"DOMSCOPE_TUI_CHILD=1", "DOMSCOPE_TUI_WS=" + b.WebSocketURL(), "DOMSCOPE_TUI_URL=" + url, "TERM=xterm-256color"}
	env = append(env, extra...)
	// The shell stays after the program, so the restored terminal can be
	// inspected.
	return startTermCmd(t, "env "+strings.Join(quoteAll(env), " ")+" "+shellQuote(exe)+" -test.run=^$; sleep 60", w, h)
}

func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and tmux is missing")
		}
		t.Skip("skipping: tmux is not installed")
	}
}

// startTermCmd runs the shell command cmd in a w×h terminal.
func startTermCmd(t *testing.T, cmd string, w, h int) *term {
	t.Helper()
	needTmux(t)
	tm := &term{t: t, socket: fmt.Sprintf("domscope-test-%d-%d", os.Getpid(), time.Now().UnixNano()%1e6),
		raw: filepath.Join(t.TempDir(), "raw.out")}
	tm.tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tm.socket, "kill-server").Run() })
	tm.tmux("set-option", "-g", "remain-on-exit", "on")
	tm.tmux("set-option", "-g", "set-clipboard", "on")
	tm.tmux("pipe-pane", "-t", "t", "-o", "cat >> "+shellQuote(tm.raw))
	return tm
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = shellQuote(s)
	}
	return out
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// screen is what the terminal shows now.
func (tm *term) screen() string { return tm.tmux("capture-pane", "-p", "-t", "t") }

func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		tm.tmux("send-keys", "-t", "t", k)
		// a key right after Escape would read as alt+key
		if k == "Escape" {
			time.Sleep(250 * time.Millisecond)
		} else {
			time.Sleep(30 * time.Millisecond)
		}
	}
}

func (tm *term) text(s string) {
	tm.t.Helper()
	tm.tmux("send-keys", "-t", "t", "-l", s)
	time.Sleep(50 * time.Millisecond)
}

// hangGuard is the least any wait of these tests allows. A wait ends as
// soon as what it waits for shows. Its bound only ends a hung run. So it
// must be far above what a loaded machine takes (packages run side by
// side, 50,000-element pages). A slow machine is not a broken program.
const hangGuard = 4 * time.Minute

// waitFor polls the screen until ok says yes, or fails after d. d is what
// the step takes at most as a rule. The wait is never shorter than
// hangGuard.
func (tm *term) waitFor(what string, d time.Duration, ok func(screen string) bool) string {
	tm.t.Helper()
	d = max(d, hangGuard)
	deadline := time.Now().Add(d)
	var s string
	for time.Now().Before(deadline) {
		s = tm.screen()
		if ok(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	tm.t.Fatalf("timed out after %s waiting for %s; screen:\n%s", d, what, s)
	return ""
}

func (tm *term) waitText(text string, d time.Duration) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q", text), d, func(s string) bool { return strings.Contains(s, text) })
}

// export presses e and saves to path through the prompt.
func (tm *term) export(path string) {
	tm.keys("e")
	tm.waitText("export this capture to", 5*time.Second)
	tm.keys("C-u")
	tm.text(path)
	tm.keys("Enter")
}

// closeBox closes the box titled title (e and w show one) with esc.
func (tm *term) closeBox(title string) {
	tm.t.Helper()
	tm.keys("Escape")
	tm.waitFor("the box closed", 10*time.Second, func(s string) bool { return !strings.Contains(s, title) })
}

func (tm *term) format(f string) string {
	return strings.TrimSpace(tm.tmux("display-message", "-p", "-t", "t", f))
}

// quit presses q and checks the terminal came back as it was. That is the
// primary screen, the cursor shown and mouse reporting off.
func (tm *term) quit() {
	tm.t.Helper()
	tm.keys("q")
	tm.waitText("DOMSCOPE-CHILD-EXIT", 15*time.Second)
	checks := map[string]string{"#{alternate_on}": "0", "#{cursor_flag}": "1", "#{mouse_any_flag}": "0",
		"#{mouse_button_flag}": "0", "#{mouse_standard_flag}": "0", "#{mouse_sgr_flag}": "0"}
	for f, want := range checks {
		if got := tm.format(f); got != want {
			tm.t.Errorf("after quit %s = %s, want %s (terminal not restored)", f, got, want)
		}
	}
	if s := tm.screen(); !strings.Contains(s, "DOMSCOPE-CHILD-EXIT err: <nil>") {
		tm.t.Errorf("program did not exit cleanly:\n%s", s)
	}
}

// columns splits a screen of the side-by-side layout at column split:
// the tree pane left, the flat pane right.
func columns(screen string, split int) (left, right string) {
	var l, r strings.Builder
	for _, line := range strings.Split(screen, "\n") {
		l.WriteString(ansi.Cut(line, 0, split) + "\n")
		r.WriteString(ansi.Cut(line, split, 1000) + "\n")
	}
	return l.String(), r.String()
}

func tokensOf(t *testing.T, screen string) string {
	t.Helper()
	for _, line := range strings.Split(screen, "\n") {
		if i := strings.Index(line, " tokens"); i > 0 && strings.Contains(line, "Flattened") {
			j := strings.LastIndex(line[:i], " ")
			return line[j+1 : i]
		}
	}
	t.Fatalf("no token count on screen:\n%s", screen)
	return ""
}

func osexec(socket string, args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
	return string(out), err
}

// serviceConfig is the children's service, as domscope runs it (with the
// click ripple). A call may take as long as the hang guard allows, and a
// snapshot four calls' time. So a loaded machine capturing a big page is
// never reported as a page not answering.
func serviceConfig() live.Config {
	return live.Config{VisualEffects: true, CallTimeout: hangGuard}
}

// childScript loads DOMSCOPE_TUI_SCRIPT to step through. It appends the
// session to DOMSCOPE_TUI_RECORD, as run --ui FILE --record FILE does.
func childScript(cfg *Config) error {
	if p := os.Getenv("DOMSCOPE_TUI_SCRIPT"); p != "" {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		if cfg.Script, err = script.Load(f); err != nil {
			return err
		}
		cfg.ScriptName = filepath.Base(p)
	}
	if p := os.Getenv("DOMSCOPE_TUI_RECORD"); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		cfg.Record = f // closed with the process
	}
	return nil
}

// verdict is the effect the details line puts before the action.
var verdict = regexp.MustCompile(`last action: (navigated|new tab|dialog|changed|focus only|none) · `)

// acted drops the verdict from the last-action line, so a test can look
// for the action itself whatever it did.
func acted(screen string) string {
	return verdict.ReplaceAllString(screen, "last action: ")
}
