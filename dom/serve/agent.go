package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
	"domscope/dom/tabs"
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

// front is one tab's MCP server, the agent CLI's door to that tab. Its
// ids are the tab's live model's, as `snapshot` prints them.
type front struct {
	tab     *servedTab
	srv     *mcp.Server
	cs      *sdk.ClientSession
	session string // "" for a tab named by --target

	mu   sync.Mutex
	last mcp.Call // the last call that ended
	rec  *mcp.Recording
	file *os.File // the --record script, when asked
	step string   // the last call's step, for --steps
}

// agents holds the fronts and the sessions. Guarded by Server.mu.
type agents struct {
	fronts   map[string]*front // by tab id
	sessions map[string]string // session name → tab id
}

// call runs one agent CLI command and answers with JSON of an Answer.
func (s *Server) call(ctx context.Context, req Request) (string, error) {
	if req.Tool == "" {
		return "", dom.Errorf(dom.ValidationError, nil, "no tool named")
	}
	var f *front
	var err error
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
	var a Answer
	if w, ok := urlWait(req); ok {
		a = f.waitURL(ctx, w)
	} else if a, err = f.run(ctx, req.Tool, req.Args); err != nil {
		return "", err
	}
	if !req.Steps {
		a.Step = ""
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
	res, err := f.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
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

// newFront makes the MCP server of t, for session (or "").
func (s *Server) newFront(ctx context.Context, t *servedTab, session string) (*front, error) {
	f := &front{tab: t, session: session}
	f.srv = mcp.NewLive(mcp.Config{
		Service: t.svc, Page: t.page, Browser: s.browser,
		Observer: f.observe,
		Version:  "serve",
	}, live.Config{FreshDocumentIDs: true})
	f.rec = mcp.NewRecording(f.srv, nil)
	ct, st := sdk.NewInMemoryTransports()
	if _, err := f.srv.MCP().Connect(s.ctx, st, nil); err != nil {
		return nil, err
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "domscope-cli", Version: "serve"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	f.cs = cs
	return f, nil
}

// frontOf is t's front, made on first use.
func (s *Server) frontOf(ctx context.Context, t *servedTab, session string) (*front, error) {
	s.mu.Lock()
	f := s.agents.fronts[t.id]
	s.mu.Unlock()
	if f != nil && f.tab == t {
		return f, nil
	}
	f, err := s.newFront(ctx, t, session)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.agents.fronts[t.id]; g != nil && g.tab == t {
		go f.close()
		return g, nil
	}
	s.agents.fronts[t.id] = f
	return f, nil
}

// targetFront is the front of the tab spec names (--target).
func (s *Server) targetFront(ctx context.Context, spec string) (*front, error) {
	t, err := s.tab(ctx, spec, nil)
	if err != nil {
		return nil, err
	}
	if owner := s.owner(t.id); owner != "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "that tab is session %q's: act on it with --session %s", owner, owner)
	}
	return s.frontOf(ctx, t, "")
}

// owner is the session whose tab id is, or "".
func (s *Server) owner(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, tid := range s.agents.sessions {
		if tid == id {
			return name
		}
	}
	return ""
}

// sessionFront is the front of session name's tab. The first time, it
// opens a tab of its own: two sessions never share one.
func (s *Server) sessionFront(ctx context.Context, name string) (*front, error) {
	s.mu.Lock()
	id, ok := s.agents.sessions[name]
	s.mu.Unlock()
	if ok {
		if e := s.served(id); e != nil {
			if err := e.Wait(ctx); err != nil {
				return nil, err
			}
			return s.frontOf(ctx, e.Service(), name)
		}
		// Its tab closed or crashed: the session starts afresh.
	}
	e, err := s.pool.Open(ctx, "about:blank", nil)
	if err != nil {
		return nil, err
	}
	t := e.Service()
	s.mu.Lock()
	t.watched = true // a session's tab is kept until it closes
	s.agents.sessions[name] = t.id
	s.mu.Unlock()
	return s.frontOf(ctx, t, name)
}

// moveSession points the session at the tab req's args name.
func (s *Server) moveSession(ctx context.Context, req Request) (*front, error) {
	var args struct {
		Tab string `json:"tab"`
	}
	_ = json.Unmarshal(req.Args, &args)
	open, err := s.browser.Targets(ctx)
	if err != nil {
		return nil, err
	}
	info, err := tabs.Pick(open, args.Tab)
	if err != nil {
		return nil, err
	}
	if owner := s.owner(info.ID); owner != "" && owner != req.Session {
		return nil, dom.Errorf(dom.ValidationError, nil, "tab %s is session %q's: two sessions never share a tab", args.Tab, owner)
	}
	t, err := s.tab(ctx, info.ID, nil)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	t.watched = true
	s.agents.sessions[req.Session] = t.id
	s.mu.Unlock()
	return s.frontOf(ctx, t, req.Session)
}

// closeSession closes the session's tab and forgets the session.
func (s *Server) closeSession(ctx context.Context, name string) (string, error) {
	s.mu.Lock()
	id, ok := s.agents.sessions[name]
	delete(s.agents.sessions, name)
	f := s.agents.fronts[id]
	s.mu.Unlock()
	if !ok {
		return "", dom.Errorf(dom.TargetNotFound, nil, "no session %q is open", name)
	}
	text := fmt.Sprintf("closed session %s\n", name)
	if e := s.served(id); e != nil && e.Ready() {
		t := e.Service()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_ = t.page.Call(cctx, "Page.close", nil, nil)
		cancel()
		s.drop(t)
	}
	if f != nil {
		s.forgetFront(f)
	}
	b, err := json.Marshal(Answer{Text: text})
	return string(b), err
}

// forgetFront drops f and closes its MCP server.
func (s *Server) forgetFront(f *front) {
	s.mu.Lock()
	if s.agents.fronts[f.tab.id] == f {
		delete(s.agents.fronts, f.tab.id)
	}
	for name, id := range s.agents.sessions {
		if id == f.tab.id {
			delete(s.agents.sessions, name)
		}
	}
	s.mu.Unlock()
	go f.close()
}

func (f *front) close() {
	_ = f.cs.Close()
	f.srv.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.file != nil {
		_ = f.file.Close()
	}
}

// closeFronts closes every front, when the server stops.
func (s *Server) closeFronts() {
	s.mu.Lock()
	fronts := s.agents.fronts
	s.agents.fronts = map[string]*front{}
	s.mu.Unlock()
	for _, f := range fronts {
		f.close()
	}
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
