package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// The command-line tests run this test binary as domscope itself.
// DOMSCOPE_CLI_ARGS (a JSON list) makes TestMain run dispatch on those
// arguments and exit as main does.
func TestMain(m *testing.M) {
	if os.Getenv("DOMSCOPE_CLI_RAW") != "" {
		// The shell completion test runs the binary as domscope itself.
		if err := dispatch(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
			os.Exit(report(err, os.Stderr))
		}
		os.Exit(0)
	}
	if a := os.Getenv("DOMSCOPE_CLI_ARGS"); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			os.Exit(99)
		}
		ctx, cancel := signal.NotifyContext(context.Background(), quitSignals...)
		err := dispatch(ctx, args, os.Getenv, os.Stdout, os.Stderr)
		cancel()
		if err != nil {
			os.Exit(report(err, os.Stderr))
		}
		os.Exit(0)
	}
	cdptest.Main(m)
}

// runCLI runs domscope with args and stdin. It returns stdout, stderr and
// the exit code.
func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	a, _ := json.Marshal(args)
	// A hang guard: a loaded machine is slow, not broken.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(a))
	cmd.Stdin = strings.NewReader(stdin)
	// A child still running at the guard prints its goroutines as it ends
	// (SIGQUIT). So a hang says where it is.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("domscope %v did not end; stdout:\n%s\nstderr (its goroutines):\n%s", args, out.String(), errb.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running domscope %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

var pages = filepath.Join("testdata", "pages")

func TestTimeoutMustBePositive(t *testing.T) {
	for _, cmd := range [][]string{
		{"snapshot", "--timeout", "0s"},
		{"snapshot", "--timeout=-5s"},
		{"run", "--timeout", "0", "-"},
		{"--timeout", "-1ms"},
	} {
		_, stderr, code := runCLI(t, "", cmd...)
		if code != 2 || !strings.Contains(stderr, "--timeout") || !strings.Contains(stderr, "positive duration") || strings.Contains(stderr, "no browser") {
			t.Errorf("domscope %v: exit %d, stderr %q; want exit 2 and a usage error about --timeout", cmd, code, stderr)
		}
	}
}

// TestRunAcrossAlert: a click opens alert(), and the run goes on. In
// place of the snapshot it prints a line saying the dialog blocks the
// page. It accepts it in the next step and carries on to the end (exit 0).
func TestRunAcrossAlert(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	script := strings.Join([]string{
		`{"action":"click","target":{"css":"#accept"}}`,
		`{"action":"click","target":{"css":"#alert"}}`,
		`{"action":"dialog","accept":true}`,
		`{"action":"click","target":{"css":"#inc"}}`,
	}, "\n")
	stdout, stderr, code := runCLI(t, script, "run", "--endpoint", ws, "--url", base+"/actions/basic.html", "--snapshots", "text", "-")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", code, stderr, stdout)
	}
	want := `# no snapshot after step 2: a JavaScript alert dialog ("hello from alert") blocks the page`
	if !strings.Contains(stdout, want) {
		t.Errorf("no dialog line %q in\n%s", want, stdout)
	}
	if !strings.Contains(stdout, "# snapshot #") || !strings.Contains(stdout, "after step 4") || !strings.Contains(stdout, `button "Clicked 1"`) {
		t.Errorf("the run did not go on to step 4 (its snapshot shows the clicked button):\n%s", stdout)
	}

	// json: the same line as an object. An action while the alert is open
	// fails with DIALOG_OPEN (recoverable), naming the dialog.
	script = strings.Join([]string{
		`{"action":"click","target":{"css":"#accept"}}`,
		`{"action":"click","target":{"css":"#alert"}}`,
		`{"action":"click","target":{"css":"#inc"}}`,
	}, "\n")
	stdout, stderr, code = runCLI(t, script, "run", "--endpoint", ws, "--url", base+"/actions/basic.html", "--snapshots", "json", "-")
	if code != 1 || !strings.Contains(stderr, "DIALOG_OPEN") || strings.Contains(stderr, "SNAPSHOT_FAILED") {
		t.Fatalf("exit %d, stderr %q; want exit 1 with DIALOG_OPEN\n%s", code, stderr, stdout)
	}
	var blocked, failed bool
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var v struct {
			Step    int    `json:"step"`
			Blocked string `json:"blocked"`
			Dialog  *struct {
				Type, Message string
			} `json:"dialog"`
			Error *struct {
				Code        string `json:"code"`
				Message     string `json:"message"`
				Recoverable bool   `json:"recoverable"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if v.Step == 2 && v.Blocked != "" {
			blocked = v.Dialog != nil && v.Dialog.Type == "alert" && v.Dialog.Message == "hello from alert"
		}
		if v.Step == 3 && v.Error != nil {
			e := v.Error
			failed = e.Code == "DIALOG_OPEN" && e.Recoverable && strings.Contains(e.Message, "alert") && strings.Contains(e.Message, "hello from alert")
		}
	}
	if !blocked || !failed {
		t.Fatalf("want a blocked object after step 2 (%v) and a recoverable DIALOG_OPEN naming the alert at step 3 (%v):\n%s", blocked, failed, stdout)
	}
}

// TestRunRejectsBadLines: each malformed line fails through the command
// line. The error gives its line number and what is allowed.
func TestRunRejectsBadLines(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	long := `{"action":"type","target":{"css":"#name"},"text":"` + strings.Repeat("x", 10<<20) + `"}`
	script := "# a comment\n" +
		`{"action":"click","target":{"css":"#accept"},"clickCount":-5}` + "\n" +
		`{"action":"click","target":{"css":"#accept"}} and more` + "\n" +
		long + "\n" +
		`{"action":"click","target":{"css":"#accept"}}` + "\n"
	stdout, stderr, code := runCLI(t, script, "run", "--keep-going", "--endpoint", ws, "--url", base+"/actions/basic.html", "-")
	if code != 1 || !strings.Contains(stderr, "3 of 4 steps failed") || !strings.Contains(stderr, "line 2") {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	for _, want := range []string{
		`"line":2,"action":"click","success":false`, `line 2: clickCount -5: use 1, 2 or 3`,
		`line 3: text after the step's JSON object: \"and more\"`,
		`"line":4,"action":"?"`, fmt.Sprintf(`line 4 is %d bytes long: a step may have at most 1048576 (1 MiB)`, len(long)),
		`"line":5,"target":"node_`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%.2000s", want, stdout)
		}
	}
	if strings.Contains(stdout+stderr, "token too long") {
		t.Errorf("the scanner's error leaked")
	}
}

// TestDeepPageNotAnswering: a page nested thousands of levels deep hangs
// Chromium's renderer, so attaching to it cannot finish. The error says
// the page does not answer the DevTools protocol and names the call.
func TestDeepPageNotAnswering(t *testing.T) {
	cdptest.SkipShort(t)
	if _, err := cdpconn.FindChrome(); err != nil {
		t.Skipf("no Chromium: %v", err)
	}
	// A browser of its own, so the hung renderer does not stall other tests.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	base, _ := cdptest.Serve(t, pages)
	deep, err := b.OpenPage(ctx, base+"/deep.html?depth=3000&wrap=")
	if err != nil {
		t.Fatal(err)
	}
	// By name the tab is listed and attached. By id it is opened through
	// its own socket. Either way the capture's reads go behind the probe.
	for _, spec := range []string{"deep.html", deep.TargetID()} {
		_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", b.WebSocketURL(), "--target", spec, "--timeout", "4s")
		// snapshot attaches directly: its first call to the page is
		// Runtime.evaluate, and it hears of a renderer that crashed at once
		hung := strings.Contains(stderr, "is not answering the DevTools protocol") && strings.Contains(stderr, "Runtime.evaluate")
		if code != 2 || !(hung || strings.Contains(stderr, "the page crashed")) || strings.Contains(stderr, "no browser at") {
			t.Fatalf("--target %s: exit %d, stderr %q; want exit 2 saying the page does not answer Runtime.evaluate or crashed", spec, code, stderr)
		}
	}
}

// An error line carrying a page's title must not carry its escape
// sequences or invisible characters. They show as the flat view writes
// them (\x1b, \u202e), never raw. Nor as a bare "[31m" that a naive
// filter leaves.
func TestErrorLineIsSanitized(t *testing.T) {
	err := errors.New("no element in \x1b[31mEvil\x1b[0m \u009b2J title\nsecond line \u202eevil")
	got := errorLine(err)
	for _, bad := range []string{"\x1b", "\u009b", "\n", "\u202e"} {
		if strings.Contains(got, bad) {
			t.Errorf("error line %q holds %q", got, bad)
		}
	}
	for _, want := range []string{`\x1b[31mEvil\x1b[0m`, `\u009b2J`, "title second line", `\u202eevil`} {
		if !strings.Contains(got, want) {
			t.Errorf("error line %q: want %q in it", got, want)
		}
	}
}

// --version prints the version and exits 0. A bad --theme is a usage
// error (exit 2) naming the allowed values. open --help lists only its
// own flags.
func TestVersionThemeAndOpenHelp(t *testing.T) {
	out, stderr, code := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "domscope ") || stderr != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, args := range [][]string{{"--theme", "purple"}, {"demo", "--theme=purple"}, {"open", "--theme", "purple", "x.json"}} {
		_, stderr, code := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, `--theme "purple"`) || !strings.Contains(stderr, "auto, dark, light") {
			t.Errorf("domscope %v: exit %d, stderr %q; want exit 2 and the allowed themes", args, code, stderr)
		}
	}
	help, _, code := runCLI(t, "", "open", "--help")
	if code != 0 || !strings.Contains(help, "--theme") || !strings.Contains(help, "--no-color") {
		t.Errorf("open --help: exit %d, stdout %q", code, help)
	}
	for _, f := range []string{"--no-highlight", "--no-effects", "--endpoint", "--launch"} {
		if strings.Contains(help, f) {
			t.Errorf("open --help lists %s, which does not apply to a saved capture:\n%s", f, help)
		}
	}
}

// TestTerminalClosedClosesTheTab: the UI opens a tab for --url. Then its
// terminal goes away: tmux's server is killed, and the program gets
// SIGHUP, as from a closed window. It ends as q ends it and closes that
// tab, instead of leaving it in the user's browser.
func TestTerminalClosedClosesTheTab(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and tmux is missing")
		}
		t.Skip("skipping: tmux is not installed")
	}
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, pages)
	url := base + "/hidden.html?hup=" + fmt.Sprint(time.Now().UnixNano())
	a, _ := json.Marshal([]string{"--endpoint", b.WebSocketURL(), "--url", url})
	socket := fmt.Sprintf("domscope-hup-%d", os.Getpid())
	cmd := "env DOMSCOPE_CLI_ARGS='" + strings.ReplaceAll(string(a), "'", `'\''`) + "' TERM=xterm-256color " + os.Args[0] + " -test.run=^$"
	if out, err := exec.Command("tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() })
	open := func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		infos, err := b.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ti := range infos {
			if ti.URL == url {
				return true
			}
		}
		return false
	}
	shown := func() bool {
		out, _ := exec.Command("tmux", "-L", socket, "capture-pane", "-p", "-t", "t").CombinedOutput()
		return strings.Contains(string(out), "snapshot #1")
	}
	// Both bounds are hang guards: a loaded machine is slow, not broken.
	for deadline := time.Now().Add(4 * time.Minute); !(open() && shown()); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the UI did not show the page (tab open: %v)", open())
		}
	}
	if out, err := exec.Command("tmux", "-L", socket, "kill-server").CombinedOutput(); err != nil {
		t.Fatalf("tmux kill-server: %v: %s", err, out)
	}
	for deadline := time.Now().Add(4 * time.Minute); open(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tab the UI opened is still open after its terminal went away")
		}
	}
}
