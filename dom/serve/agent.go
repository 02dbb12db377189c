package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom"
	"domscope/dom/mcp"
)

// Answer is the reply to a tool call of the agent CLI (Request.Op
// "call"): what the MCP tool answered, as the MCP client reads it.
type Answer struct {
	// Text is the tool's answer: the verdict line, then the changed lines.
	Text string `json:"text"`
	// Error: the call failed; Code is its error code.
	Error bool     `json:"error,omitempty"`
	Code  dom.Code `json:"code,omitempty"`
	// Result is the action's result, secrets masked (nil for reads).
	Result *dom.ActionResult `json:"result,omitempty"`
	// Step is the action as a `run` step (with Request.Steps).
	Step string `json:"step,omitempty"`
	// Image is a screenshot's PNG.
	Image []byte `json:"image,omitempty"`
}

// Ops of the agent CLI that are not MCP tools.
const (
	OpCall = "call" // Request.Tool with Request.Args
	// Tools the daemon answers itself.
	ToolClose = "close" // end the session and close its tab
	ToolTab   = "tab"   // move the session to another tab (Args: {"tab": spec})
)

// call runs one agent CLI command and answers with JSON of an Answer.
func (s *Server) call(ctx context.Context, req Request) (string, error) {
	if req.Tool == "" {
		return "", dom.Errorf(dom.ValidationError, nil, "no tool named")
	}
	var f *front
	var err error
	switch {
	case req.Tool == ToolLend:
		return s.lend(ctx, req.Session)
	case req.Tool == ToolTab && s.gate != nil:
		return "", dom.Errorf(dom.ValidationError, nil, "the UI watches this session: pick its tab there (T)")
	}
	back := req.Session != "" && s.takeBack(req.Session)
	switch {
	case req.Tool == ToolClose && req.Session != "":
		return s.closeSession(ctx, req.Session)
	case req.Tool == ToolTab:
		if req.Session == "" {
			return "", dom.Errorf(dom.ValidationError, nil, "tab picks the tab of a session: give --session NAME, or --target to each command")
		}
		f, err = s.moveSession(ctx, req)
		if err == nil {
			req.Tool, req.Args = "dom_snapshot", json.RawMessage(`{"offscreen":false}`)
		}
	case req.Session != "":
		f, err = s.sessionFront(ctx, req.Session)
	default:
		f, err = s.targetFront(ctx, req.Target)
	}
	if err != nil {
		return "", err
	}
	if req.Tool == ToolClose {
		req.Tool, req.Args = "dom_tabs", json.RawMessage(`{"action":"close"}`)
	}
	if back {
		// What the UI's session did is no late effect of this
		// service's last action.
		if snap, err := f.tab.svc.Snapshot(ctx, true); err == nil {
			f.tab.svc.Later(snap)
		}
	}
	if req.Record != "" {
		if err := f.record(req.Record); err != nil {
			return "", err
		}
	}
	// An action names ids of the view the agent saw: a snapshot printed
	// before this service ran numbers the page as a first capture here
	// does.
	if f.tab.svc.Current() == nil && req.Tool != "dom_snapshot" {
		if _, err := f.tab.svc.Snapshot(ctx, false); err != nil {
			return "", err
		}
	}
	a, err := f.run(ctx, req.Tool, req.Args)
	if err != nil {
		return "", err
	}
	if !req.Steps {
		a.Step = ""
	}
	if back {
		a.Text = backFromUI + a.Text
	}
	if req.Tool == "dom_tabs" && strings.Contains(string(req.Args), `"close"`) && !a.Error {
		s.forgetFront(f)
	}
	b, err := json.Marshal(a)
	return string(b), err
}

// run calls tool on f's MCP server, as an MCP client would.
func (f *front) run(ctx context.Context, tool string, args json.RawMessage) (Answer, error) {
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	f.mu.Lock()
	f.step = ""
	f.mu.Unlock()
	params := &sdk.CallToolParams{Name: tool, Arguments: args}
	mcp.WithDeadline(ctx, params) // the CLI's --timeout bounds the call
	res, err := f.cs.CallTool(ctx, params)
	if err != nil && ctx.Err() != nil {
		return Answer{}, dom.Errorf(dom.Timeout, err, "the %s call got no answer in time: raise --timeout", tool)
	}
	if err != nil {
		return Answer{}, dom.Errorf(dom.CDPError, err, "the %s call failed", tool)
	}
	var a Answer
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			a.Text += c.Text
		case *sdk.ImageContent:
			a.Image = c.Data
		}
	}
	a.Error = res.IsError
	if a.Error {
		code, _, _ := strings.Cut(a.Text, ":")
		a.Code = dom.Code(code)
	}
	f.mu.Lock()
	if f.last.Tool == tool {
		a.Result = f.last.Result
	}
	a.Step = f.step
	f.mu.Unlock()
	return a, nil
}

// observe is f's MCP observer: it keeps the last call and records each
// action as a `run` step, as the UI's recorder does.
func (f *front) observe(c mcp.Call) {
	f.mu.Lock()
	rec := f.rec
	if c.Done {
		f.last = c
	}
	f.mu.Unlock()
	rec.Observe(c)
	if c.Done {
		f.mu.Lock()
		f.step = rec.Step()
		f.mu.Unlock()
	}
}

// record starts writing f's steps to the script at path, once.
func (f *front) record(path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.file != nil {
		if f.file.Name() == path {
			return nil
		}
		return dom.Errorf(dom.ValidationError, nil, "this session records to %s already", f.file.Name())
	}
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return dom.Errorf(dom.ValidationError, err, "cannot write the script")
	}
	f.file = file
	f.rec = mcp.NewRecording(f.srv, file)
	return nil
}

// agentLogName is a call as the daemon's log names it: the tool and the
// session, never the arguments (typed text, URLs with tokens).
func agentLogName(req Request) string {
	name := strings.TrimPrefix(req.Tool, "dom_")
	if req.Session != "" {
		return fmt.Sprintf("%s (session %q)", name, req.Session)
	}
	return name
}

// answerCode is the error code of an Answer's JSON, or "".
func answerCode(text string) dom.Code {
	var a struct {
		Code dom.Code `json:"code"`
	}
	if json.Unmarshal([]byte(text), &a) != nil {
		return ""
	}
	return a.Code
}
