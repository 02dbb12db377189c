package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn/cdptest"
)

// agentSecret is typed by the agent into the password field. It must
// show nowhere.
const agentSecret = "Tr0ub4dor-agent-42"

// agentTerm is domscope running under tmux, with its raw output kept.
type agentTerm struct {
	t      *testing.T
	socket string
	raw    string
}

func (a *agentTerm) tmux(args ...string) string {
	a.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", a.socket}, args...)...).CombinedOutput()
	if err != nil {
		a.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (a *agentTerm) screen() string { return a.tmux("capture-pane", "-p", "-t", "t") }

func (a *agentTerm) keys(k ...string) {
	a.t.Helper()
	for _, key := range k {
		a.tmux("send-keys", "-t", "t", key)
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFor polls the screen until ok. Every screen seen is checked for the
// secret.
func (a *agentTerm) waitFor(what string, ok func(string) bool) string {
	a.t.Helper()
	var s string
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		s = a.screen()
		if strings.Contains(s, agentSecret) {
			a.t.Fatalf("the agent's secret is on screen:\n%s", s)
		}
		if ok(s) {
			return s
		}
		if strings.Contains(s, "EXIT ") {
			break
		}
	}
	a.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
	return ""
}

func (a *agentTerm) waitText(text string) string {
	a.t.Helper()
	return a.waitFor(fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// startAgentUI runs domscope with args in a 160×45 terminal, with env
// (NAME=value) added to its environment.
func startAgentUI(t *testing.T, args []string, env ...string) *agentTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and tmux is missing")
		}
		t.Skip("skipping: tmux is not installed")
	}
	j, _ := json.Marshal(args)
	a := &agentTerm{t: t, socket: fmt.Sprintf("domscope-agent-%d-%d", os.Getpid(), time.Now().UnixNano()%1e6),
		raw: filepath.Join(t.TempDir(), "raw.out")}
	cmd := "env " + strings.Join(env, " ") + " DOMSCOPE_CLI_ARGS='" + strings.ReplaceAll(string(j), "'", `'\''`) + "' TERM=xterm-256color " + os.Args[0] + " -test.run=^$; echo EXIT $?; sleep 30"
	a.tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "160", "-y", "45", cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", a.socket, "kill-server").Run() })
	a.tmux("pipe-pane", "-t", "t", "-o", "cat >> '"+a.raw+"'")
	return a
}

// freeAddr is a loopback address with a port nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// agentCall calls a tool and returns its text and whether it failed.
func agentCall(ctx context.Context, cs *sdk.ClientSession, name string, args any) (string, bool, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, nil
}

// idOf finds the id of the view's line that holds want ("textbox \"User\"").
func idOf(t *testing.T, view, want string) string {
	t.Helper()
	re := regexp.MustCompile(`\[(\d+)\] ` + regexp.QuoteMeta(want))
	m := re.FindStringSubmatch(view)
	if m == nil {
		t.Fatalf("no %q in the view:\n%s", want, view)
	}
	return m[1]
}

// domscope --mcp: the UI shows the agent's calls as they happen. The
// person can pause the agent and act meanwhile. A paused call fails after
// its timeout, saying so. The recording holds both sides' steps. The
// secret the agent typed shows nowhere.
func TestUIWatchesTheAgent(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	url := base + "/mcp/app.html?watch=" + fmt.Sprint(time.Now().UnixNano())
	addr := freeAddr(t)
	dir := t.TempDir()
	record := filepath.Join(dir, "session.jsonl")
	term := startAgentUI(t, []string{"--endpoint", ws, "--url", url, "--mcp", addr, "--record", record,
		"--output-dir", dir, "--mcp-pause-timeout", "4s", "--no-effects"})
	term.waitText("snapshot #1")
	term.waitText("agent: 0 calls")

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "watch-test", Version: "0"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connecting to --mcp: %v", err)
	}
	defer func() { _ = cs.Close() }()
	var answers []string
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		text, bad, err := agentCall(ctx, cs, name, args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		answers = append(answers, text)
		return text, bad
	}

	view, _ := call("dom_snapshot", nil)
	add, user, pw := idOf(t, view, `button "Add item"`), idOf(t, view, `textbox "User"`), idOf(t, view, `textbox "Password"`)

	// Each call shows as it happens. The footer names it, and the panes
	// show its change.
	if out, bad := call("dom_click", map[string]any{"id": add}); bad {
		t.Fatalf("dom_click: %s", out)
	}
	term.waitText("agent: dom_click [" + add + "] → ok")
	term.waitText("Item 1")
	term.waitText("agent: 2 calls")

	if out, bad := call("dom_type", map[string]any{"id": pw, "text": agentSecret}); bad {
		t.Fatalf("dom_type into the password: %s", out)
	}
	term.waitText("agent: dom_type [" + pw + "] → ok")
	// the call's target is the selection: the details pane is on it
	term.waitText("node_" + pw + " · input#pw")

	// p pauses the agent. Its call waits while the person acts by hand.
	term.keys("p")
	term.waitText("agent paused")
	type answer struct {
		text string
		bad  bool
		err  error
	}
	held := make(chan answer, 1)
	go func() {
		text, bad, err := agentCall(ctx, cs, "dom_type", map[string]any{"id": user, "text": "alice"})
		held <- answer{text, bad, err}
	}()
	// the person clicks Add item meanwhile (search, then c)
	term.keys("/")
	term.tmux("send-keys", "-t", "t", "-l", "Add item")
	term.keys("Enter", "c")
	term.waitText("Item 2")
	select {
	case a := <-held:
		t.Fatalf("the agent's call ran while paused: %+v", a)
	default:
	}
	term.keys("p") // the call's own line soon replaces the footer's "agent resumed"
	a := <-held
	if a.err != nil || a.bad {
		t.Fatalf("the held call failed after resume: %v %s", a.err, a.text)
	}
	answers = append(answers, a.text)
	term.waitText("agent: dom_type [" + user + "] → ok")

	// A call that waits past the timeout fails, saying the session is paused.
	term.keys("p")
	term.waitText("agent paused")
	out, bad := call("dom_click", map[string]any{"id": add})
	if !bad || !strings.Contains(out, "paused") {
		t.Errorf("a call past the pause timeout: want an error saying the session is paused, got (error %v) %s", bad, out)
	}
	term.keys("p")
	term.waitFor("the agent resumed", func(s string) bool { return !strings.Contains(s, "agent paused") })

	// The call log lists tool, arguments, outcome, ms and tokens. The
	// secret is masked there.
	term.keys("M")
	calls := term.waitText("Agent calls")
	for _, want := range []string{"dom_click [" + add + "] → ok", "dom_type [" + pw + "] → ok", "tokens", `"text":"••••"`, `"text":"alice"`, "TIMEOUT"} {
		if !strings.Contains(calls, want) {
			t.Errorf("the call log lacks %q:\n%s", want, calls)
		}
	}
	term.keys("Escape")
	term.waitFor("the call log to close", func(s string) bool { return !strings.Contains(s, "Agent calls") })
	// w writes the same session as a script; H tells its story
	term.keys("w")
	term.waitText("wrote 4 steps")
	term.keys("Escape") // the box with the path and the replay command
	time.Sleep(300 * time.Millisecond)
	term.keys("H")
	story := term.waitText("The session, step by step (4)")
	for _, want := range []string{"1 ✓ agent: click on node_" + add, "2 ✓ agent: type \"••••\" on node_" + pw,
		"3 ✓ click on node_" + add, "4 ✓ agent: type \"alice\" on node_" + user} {
		if !strings.Contains(story, want) {
			t.Errorf("the story (H) lacks %q:\n%s", want, story)
		}
	}
	term.keys("Escape")
	// A q while the story is open would only close it.
	term.waitFor("the story to close", func(s string) bool { return !strings.Contains(s, "The session, step by step") })
	term.keys("q")
	term.waitText("EXIT 0")

	// The recording holds the agent's and the person's steps, in order.
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, line := range strings.Split(string(rec), "\n") {
		var st struct {
			Action string `json:"action"`
			Text   string `json:"text"`
		}
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &st) == nil {
			actions = append(actions, st.Action+" "+st.Text)
		}
	}
	want := []string{"click ", "type ••••", "click ", "type alice"}
	if strings.Join(actions, "|") != strings.Join(want, "|") {
		t.Errorf("recorded steps = %q, want %q (agent click, agent type, person click, agent type):\n%s", actions, want, rec)
	}

	scripts, _ := filepath.Glob(filepath.Join(dir, "*.script"))
	if len(scripts) != 1 {
		t.Fatalf("w wrote %d scripts, want 1", len(scripts))
	}
	written, err := os.ReadFile(scripts[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(written), `"action":`); n != 4 {
		t.Errorf("w wrote %d steps, want the 4 of both sides:\n%s", n, written)
	}

	// The secret shows nowhere: recording, screen output, tool answers.
	raw, _ := os.ReadFile(term.raw)
	for what, s := range map[string]string{"the recording": string(rec), "the script w wrote": string(written), "the terminal output": string(raw), "the tool answers": strings.Join(answers, "\n")} {
		if strings.Contains(s, agentSecret) {
			t.Errorf("the agent's secret is in %s", what)
		}
	}
}
