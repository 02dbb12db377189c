package serve

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/render"
)

// Command is one agent CLI command: its words and the tool it calls. The
// CLI builds its flags and arguments from this table.
type Command struct {
	Use, Short string
	Min, Max   int // positional arguments
	Tool       string
	Flags      []Flag
	// Args makes the tool's arguments of the command's positional ones and
	// its flags' values (a bool flag is "true" or "false").
	Args func(pos []string, flags map[string]string) (map[string]any, error)
}

// Flag is a command's own flag.
type Flag struct {
	Name, Usage string
	Bool        bool
}

func idArg(pos []string, _ map[string]string) (map[string]any, error) {
	return map[string]any{"id": pos[0]}, nil
}

func noArgs([]string, map[string]string) (map[string]any, error) { return nil, nil }

// Commands are the agent CLI's commands, each an MCP tool.
var Commands = []Command{
	{"click ID", "Click node ID of the view", 1, 1, "dom_click", nil, idArg},
	{"type ID TEXT", "Type TEXT into node ID (replacing its value)", 2, 2, "dom_type", []Flag{{"enter", "press Enter after the text", true}},
		func(pos []string, f map[string]string) (map[string]any, error) {
			if f["enter"] == "true" {
				pos[1] += "\n"
			}
			return map[string]any{"id": pos[0], "text": pos[1]}, nil
		}},
	{"press KEY [ID]", "Press a key or chord (Enter, Escape, ctrl+a), on node ID or the focus", 1, 2, "dom_key", nil,
		func(pos []string, _ map[string]string) (map[string]any, error) {
			m := map[string]any{"key": pos[0]}
			if len(pos) > 1 {
				m["id"] = pos[1]
			}
			return m, nil
		}},
	{"select ID VALUE", "Pick an option of select ID by its label or value", 2, 2, "dom_select", nil,
		func(pos []string, _ map[string]string) (map[string]any, error) {
			return map[string]any{"id": pos[0], "value": pos[1]}, nil
		}},
	{"hover ID", "Move the mouse over node ID", 1, 1, "dom_hover", nil, idArg},
	{"scroll [ID] [down|up|top|bottom]", "Scroll the page (or over node ID); ID alone brings it into view", 0, 2, "dom_scroll", nil, scrollArgs},
	{"goto URL", "Open URL in the tab (open FILE shows a saved capture)", 1, 1, "dom_navigate", nil,
		func(pos []string, _ map[string]string) (map[string]any, error) {
			return map[string]any{"url": pos[0]}, nil
		}},
	{"back", "Go back in the tab's history", 0, 0, "dom_back", nil, noArgs},
	{"forward", "Go forward in the tab's history", 0, 0, "dom_forward", nil, noArgs},
	{"reload", "Reload the page", 0, 0, "dom_reload", nil, noArgs},
	{"tabs", "List the browser's tabs", 0, 0, "dom_tabs", nil,
		func([]string, map[string]string) (map[string]any, error) {
			return map[string]any{"action": "list"}, nil
		}},
	{"tab N", "Move the session to tab N (index, id, or part of its URL or title)", 1, 1, ToolTab, nil,
		func(pos []string, _ map[string]string) (map[string]any, error) {
			return map[string]any{"tab": pos[0]}, nil
		}},
	{"wait", "Wait for text to appear (--text) or go (--gone), for the address (--url), for the view to stay still (--quiet), or for --ms", 0, 0, "dom_wait",
		[]Flag{{"text", "wait until the view holds this text", false}, {"gone", "wait until the view no longer holds this text", false},
			{"url", "wait until the tab's address holds this text", false}, {"quiet", "wait until the view has not changed for this many milliseconds", false},
			{"ms", "wait this many milliseconds; with --text, --gone, --url or --quiet: give up after this many (default 5000)", false}},
		waitArgs},
	{"find TEXT", "Find the parts of the page about TEXT, with their ids", 1, 1, "dom_find",
		[]Flag{{"max-tokens", "the answer's budget in tokens (default 2000)", false}}, findArgs},
	{"screenshot FILE", "Save the visible page as a PNG (sensitive fields painted over)", 1, 1, "dom_screenshot", []Flag{{"marks", "draw the view's ids as numbered boxes", true}},
		func(_ []string, f map[string]string) (map[string]any, error) {
			return map[string]any{"marks": f["marks"] == "true"}, nil
		}},
	{"close", "End the session and close its tab (without one: close the --target tab)", 0, 0, ToolClose, nil, noArgs},
}

// IsCommand reports whether name is an agent command, or snapshot: the
// command lines the front binary sends (sock.OpArgv).
func IsCommand(name string) bool {
	for _, c := range Commands {
		if word, _, _ := strings.Cut(c.Use, " "); word == name {
			return true
		}
	}
	return name == "snapshot"
}

func scrollArgs(pos []string, _ map[string]string) (map[string]any, error) {
	m := map[string]any{}
	dir := ""
	switch len(pos) {
	case 1:
		if _, err := strconv.Atoi(strings.Trim(pos[0], "[]")); err == nil {
			return map[string]any{"id": pos[0]}, nil
		}
		dir = pos[0]
	case 2:
		m["id"], dir = pos[0], pos[1]
	}
	switch dir {
	case "", "down":
		if m["id"] != nil {
			m["dy"] = 600
		}
	case "up":
		m["dy"] = -600
	case "top":
		m["dy"] = -1e7
	case "bottom":
		m["dy"] = 1e7
	default:
		return nil, render.UsageError{Msg: fmt.Sprintf("scroll %q: want down, up, top or bottom", dir)}
	}
	return m, nil
}

func findArgs(pos []string, f map[string]string) (map[string]any, error) {
	if strings.TrimSpace(pos[0]) == "" {
		return nil, render.UsageError{Msg: "find needs the words to look for"}
	}
	m := map[string]any{"text": pos[0]}
	if f["max-tokens"] != "" {
		n, err := strconv.Atoi(f["max-tokens"])
		if err != nil || n < 1 {
			return nil, render.UsageError{Msg: fmt.Sprintf("find --max-tokens %q: give a number of tokens, 1 or more", f["max-tokens"])}
		}
		m["maxTokens"] = n
	}
	return m, nil
}

func waitArgs(_ []string, f map[string]string) (map[string]any, error) {
	text, gone, url := f["text"], f["gone"], f["url"]
	nums := map[string]int{}
	for _, k := range []string{"ms", "quiet"} {
		if f[k] == "" {
			continue
		}
		n, err := strconv.Atoi(f[k])
		if err != nil || n < 1 || n > 60000 {
			return nil, render.UsageError{Msg: fmt.Sprintf("wait --%s %q: give milliseconds from 1 to 60000", k, f[k])}
		}
		nums[k] = n
	}
	ms, quiet := nums["ms"], nums["quiet"]
	m := map[string]any{}
	switch {
	case text != "" && gone != "":
		return nil, render.UsageError{Msg: "wait takes --text or --gone, not both"}
	case url != "" && (text != "" || gone != "" || quiet > 0):
		return nil, render.UsageError{Msg: "wait --url waits for the address alone: give --text, --gone or --quiet in another wait"}
	case url != "":
		m["url"] = url
	case text != "":
		m["text"] = text
	case gone != "":
		m["text"], m["gone"] = gone, true
	}
	if quiet > 0 {
		m["quiet"] = quiet
	}
	switch {
	case len(m) > 0 && ms > 0:
		m["timeout"] = ms
	case len(m) > 0 && url != "":
		m["timeout"] = 0
	case len(m) == 0 && ms > 0:
		m["ms"] = ms
	case len(m) == 0:
		return nil, render.UsageError{Msg: "wait needs one of --text TEXT, --gone TEXT, --url TEXT, --quiet MS (each with --ms, its bound) or --ms N"}
	}
	return m, nil
}

// Runner starts the service an agent command asks, when none runs.
type Runner struct {
	Exe      string // the domscope binary
	Endpoint string
	Idle     time.Duration
	Timeout  time.Duration
}

// Run asks the endpoint's service to run req, starting one (detached)
// when none answers. Inside the service (an argv run) it asks the
// service directly.
func (r Runner) Run(ctx context.Context, req Request) (Answer, error) {
	if call := InProcess(ctx); call != nil {
		return call(ctx, req)
	}
	if req.Session != "" {
		// a UI that watches the session answers it (lend.go)
		if a, ok, err := Call(ctx, SessionSocketPath(r.Endpoint, req.Session), req); ok || err != nil {
			return a, err
		}
	}
	return r.daemon(ctx, req)
}

// daemon asks the endpoint's resident service to run req, starting one
// (detached) when none answers.
func (r Runner) daemon(ctx context.Context, req Request) (Answer, error) {
	path := SocketPath(r.Endpoint)
	a, ok, err := Call(ctx, path, req)
	if ok || err != nil {
		return a, err
	}
	args := []string{"--endpoint", r.Endpoint, "--idle", r.Idle.String(), "--timeout", r.Timeout.String()}
	if err := Start(ctx, r.Exe, args, path, LogPath(r.Endpoint)); err != nil {
		return a, err
	}
	a, ok, err = Call(ctx, path, req)
	if !ok && err == nil {
		err = dom.Errorf(dom.AttachFailed, nil, "domscope serve does not answer: see %s", LogPath(r.Endpoint))
	}
	return a, err
}
