// Command domscope, the front, is the small program installed as
// domscope beside the full one, domscope-engine. An agent command (and
// `snapshot --session`) is a short process each time: this one starts in
// a few milliseconds, sends its command line to the resident service
// (domscope serve), which runs it on the full program's own command tree,
// and prints the answer. Anything else, or no service to ask, runs the
// full program in its place (exec), with the same arguments.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"domscope/dom/serve/sock"
)

// engineName is the full program, beside this one.
const engineName = "domscope-engine"

// agentCommands are the names of serve.Commands (a test holds them
// equal): the front sends these to the service.
var agentCommands = []string{"click", "type", "press", "select", "hover", "scroll", "goto", "back", "forward", "reload", "tabs", "tab", "wait", "find", "screenshot", "close"}

func main() {
	if c, ok := plan(os.Args[1:], os.Getenv); ok {
		c.run()
	}
	execEngine()
}

// call is a command line the service may answer, and where to ask.
type call struct {
	req      sock.ArgvRequest
	paths    []string // the sockets to ask, in turn
	deadline time.Time
}

// plan is the call for args, or false when the full program must run
// them: another command, help, a config file of its own, an endpoint
// elsewhere, a timing run.
func plan(args []string, getenv func(string) string) (call, bool) {
	var c call
	if len(args) == 0 || getenv("DOMSCOPE_TIMING") != "" {
		return c, false
	}
	name := args[0]
	if name != "snapshot" && !isAgent(name) {
		return c, false
	}
	endpoint, session, timeout := getenv("DOMSCOPE_ENDPOINT"), "", getenv("DOMSCOPE_TIMEOUT")
	sessionGiven := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" || a == "--config" || strings.HasPrefix(a, "--config=") {
			return c, false
		}
		for _, f := range []struct {
			name string
			v    *string
		}{{"--endpoint", &endpoint}, {"--session", &session}, {"--timeout", &timeout}} {
			switch {
			case a == f.name && i+1 < len(args):
				i++
				*f.v = args[i]
			case strings.HasPrefix(a, f.name+"="):
				*f.v = a[len(f.name)+1:]
			default:
				continue
			}
			sessionGiven = sessionGiven || f.name == "--session"
		}
	}
	cfg := configText(getenv)
	if configSets(cfg, "endpoint") {
		return c, false
	}
	if endpoint == "" {
		endpoint = sock.DefaultEndpoint
	}
	if !sock.Loopback(endpoint) {
		return c, false
	}
	argv := args
	if !sessionGiven && getenv("DOMSCOPE_SESSION") != "" {
		// Named on the line: the service never reads its own variables.
		session = getenv("DOMSCOPE_SESSION")
		argv = append([]string{name, "--session=" + session}, args[1:]...)
	}
	if name == "snapshot" && session == "" {
		return c, false // a snapshot of a tab goes its own way
	}
	if session != "" {
		// A UI that watches the session answers it.
		c.paths = append(c.paths, sock.SessionSocketPath(endpoint, session))
	}
	c.paths = append(c.paths, sock.SocketPath(endpoint))
	dir, err := os.Getwd()
	if err != nil {
		return c, false
	}
	c.req = sock.ArgvRequest{Argv: argv, Dir: dir, Env: sock.Env(os.Environ())}
	// A hang guard only: the service applies the command's --timeout.
	d, err := time.ParseDuration(timeout)
	if err != nil || d <= 0 || configSets(cfg, "timeout") {
		d = time.Hour
	}
	c.deadline = time.Now().Add(d + time.Minute)
	return c, true
}

func isAgent(name string) bool {
	for _, n := range agentCommands {
		if n == name {
			return true
		}
	}
	return false
}

// configText is the default config file's text, if any. --config sends
// the command to the full program before this is read.
func configText(getenv func(string) string) string {
	var path string
	switch {
	case getenv("XDG_CONFIG_HOME") != "":
		path = filepath.Join(getenv("XDG_CONFIG_HOME"), "domscope", "config.toml")
	case getenv("HOME") != "":
		path = filepath.Join(getenv("HOME"), ".config", "domscope", "config.toml")
	default:
		return ""
	}
	b, _ := os.ReadFile(path)
	return string(b)
}

// configSets reports whether the config text sets key on a line of its
// own. A false yes only sends the command to the full program.
func configSets(text, key string) bool {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), key); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return true
		}
	}
	return false
}

// run asks each socket in turn, until one is there. An answer is
// printed and ends the process. It returns when none is there or the
// one there says direct: then the full program runs.
func (c call) run() {
	for _, path := range c.paths {
		a, o, err := sock.Argv(path, c.req, c.deadline)
		switch {
		case err != nil:
			// It may have acted: running it again could act twice.
			if log := strings.TrimSuffix(path, ".sock") + ".log"; fileExists(log) {
				err = fmt.Errorf("%w: see %s", err, log)
			}
			fmt.Fprintf(os.Stderr, "domscope: %v\n", err)
			os.Exit(1)
		case o == sock.Answered:
			_, _ = os.Stdout.Write(a.Stdout)
			_, _ = os.Stderr.Write(a.Stderr)
			os.Exit(a.Code)
		case o == sock.Direct:
			// The engine asks the same server, its own way.
			return
		}
	}
}

// execEngine runs the full program in this process's place.
func execEngine() {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "domscope: cannot find this program's own path: %v\n", err)
		os.Exit(2)
	}
	engine := filepath.Join(filepath.Dir(exe), engineName)
	err = syscall.Exec(engine, os.Args, os.Environ())
	// Exec returns only on failure.
	fmt.Fprintf(os.Stderr, "domscope: the full program is missing: want %s (%v); build both with `make build`, or install them with `make install`\n", engine, err)
	os.Exit(2)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
