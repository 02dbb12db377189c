package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"domscope/dom/serve"
)

// TestAgentCommandsAreServes: the front sends exactly the agent
// commands the full program has.
func TestAgentCommandsAreServes(t *testing.T) {
	var want []string
	for _, c := range serve.Commands {
		name, _, _ := strings.Cut(c.Use, " ")
		want = append(want, name)
	}
	if !slices.Equal(agentCommands, want) {
		t.Errorf("the front's commands %v, serve.Commands' %v", agentCommands, want)
	}
}

// env is a getenv of a map: the test's process environment stays out.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestPlanSockets: the front asks the sockets dom/serve listens on, for
// each way of naming the endpoint, the session's (a watching UI) first.
func TestPlanSockets(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for _, c := range []struct {
		args              []string
		vars              map[string]string
		endpoint, session string
	}{
		{[]string{"click", "3"}, nil, "", ""},
		{[]string{"click", "3", "--endpoint", "9333"}, nil, "9333", ""},
		{[]string{"click", "--endpoint=http://LOCALHOST:9333/", "3", "--session", "s"}, nil, "http://localhost:9333", "s"},
		{[]string{"type", "3", "--", "--endpoint", "9444"}, map[string]string{"DOMSCOPE_ENDPOINT": "127.0.0.1:9555"}, "127.0.0.1:9555", ""},
		{[]string{"snapshot", "-i"}, map[string]string{"DOMSCOPE_SESSION": "env one"}, "", "env one"},
		{[]string{"snapshot", "-i", "--session=flag"}, map[string]string{"DOMSCOPE_SESSION": "env"}, "", "flag"},
		{[]string{"goto", "x", "--endpoint", "ws://127.0.0.1:9222/devtools/browser/abc"}, nil, "ws://127.0.0.1:9222/devtools/browser/abc", ""},
	} {
		got, ok := plan(c.args, env(c.vars))
		if !ok {
			t.Errorf("%v: not sent to the service", c.args)
			continue
		}
		var want []string
		if c.session != "" {
			want = append(want, serve.SessionSocketPath(c.endpoint, c.session))
		}
		want = append(want, serve.SocketPath(c.endpoint))
		if !slices.Equal(got.paths, want) {
			t.Errorf("%v: asks %v, want %v", c.args, got.paths, want)
		}
	}
	// A session from the environment is named on the line sent.
	got, _ := plan([]string{"snapshot", "-i"}, env(map[string]string{"DOMSCOPE_SESSION": "env one"}))
	if !slices.Equal(got.req.Argv, []string{"snapshot", "--session=env one", "-i"}) {
		t.Errorf("sent %q", got.req.Argv)
	}
}

// TestPlanEngine: what the full program must run is not sent.
func TestPlanEngine(t *testing.T) {
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "domscope"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "domscope", "config.toml"), []byte("theme = \"dark\"\n  endpoint = \"9333\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		vars map[string]string
	}{
		{nil, nil},
		{[]string{"snapshot"}, nil}, // no session: attaches itself
		{[]string{"version"}, nil},  // not an agent command
		{[]string{"--endpoint", "9222", "click", "3"}, nil}, // a flag first
		{[]string{"click", "--help"}, nil},
		{[]string{"click", "-h"}, nil},
		{[]string{"click", "3", "--config", "x.toml"}, nil},
		{[]string{"click", "3", "--config=x.toml"}, nil},
		{[]string{"click", "3"}, map[string]string{"DOMSCOPE_TIMING": "1"}},
		{[]string{"click", "3", "--endpoint", "wss://farm.example/?token=t"}, nil},
		{[]string{"click", "3"}, map[string]string{"DOMSCOPE_ENDPOINT": "http://10.0.0.5:9222"}},
		{[]string{"click", "3"}, map[string]string{"XDG_CONFIG_HOME": cfg}},
	} {
		if _, ok := plan(c.args, env(c.vars)); ok {
			t.Errorf("%v %v: sent to the service, want the full program", c.args, c.vars)
		}
	}
	if _, ok := plan([]string{"click", "3", "--", "--help"}, env(nil)); !ok {
		t.Error("--help after -- is an argument, not a flag")
	}
}
