// Package mcp is domscope's DOM tool for LLM agents. It is a Model Context
// Protocol server whose dom_* tools act on a page. They use the same live
// service as the UI and `run`. So an agent sees the ids and the view
// domscope shows. Responses are short: an action answers with its result
// and the change to the view, not the whole view.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/screenshot"
	"domscope/dom/tabs"
	"domscope/dom/urls"
)

// Service is a tab's page service as the tools use it (*live.Service).
type Service interface {
	dom.Actor
	// Dialog is the JavaScript dialog open on the page, or nil.
	Dialog() *dom.DialogInfo
	// Screenshot is the viewport at its CSS size.
	Screenshot(ctx context.Context) (*screenshot.Picture, error)
	// QueryCSSIn maps a selector's matches to nodes of snap, the snapshot
	// shown (nil: the current one).
	QueryCSSIn(ctx context.Context, snap *dom.Snapshot, selector string) ([]*dom.VirtualNode, error)
}

// View is what an action answers with besides its result.
type View string

const (
	// ViewDiff: the lines of the flat view the action removed and added
	// (the default). After a navigation, the new page's view.
	ViewDiff View = "diff"
	// ViewFull: the whole view after every action.
	ViewFull View = "full"
	// ViewNone: the result only; dom_snapshot shows the view.
	ViewNone View = "none"
)

// Config sets up a Server.
type Config struct {
	// Service is the tab the server starts on. Required. The caller
	// keeps it and closes it.
	Service Service
	// Page is Service's page, for dom_tabs close (optional).
	Page dom.Page
	// Browser lists, opens and attaches tabs for dom_tabs. NewService
	// makes the service of a tab the server attaches to; the server closes
	// those. Without them dom_tabs only lists the current tab.
	Browser    dom.Browser
	NewService func(dom.Page) Service
	// View is what actions answer with besides their result.
	View View
	// Observer, when set, is told of every call as it starts and ends
	// (Call). It runs on the call's goroutine, so it must not block.
	Observer func(Call)
	// Gate, when set, holds calls while it is paused (the UI's take-over).
	// A call waits at most GateTimeout (DefaultGateTimeout).
	Gate        *Gate
	GateTimeout time.Duration
	// Log, when set, gets one line per call. It holds the tool, arguments
	// (secrets masked), outcome, milliseconds and tokens.
	Log io.Writer
	// Version is the server's version in the MCP handshake.
	Version string
	// Navigation is where dom_navigate and dom_tabs new may go. The zero
	// policy refuses local files and browser pages.
	Navigation urls.Policy
	// Attach, when set, reaches the browser a server started without one
	// (Service nil): a call before any tool runs tries it, until it works.
	// Until then every call answers ATTACH_FAILED with its error.
	Attach func(ctx context.Context) (Attached, error)
}

// Attached is what Config.Attach reached: a tab's service, its page and
// the browser. The caller keeps and closes them.
type Attached struct {
	Service Service
	Page    dom.Page
	Browser dom.Browser
}

// DefaultGateTimeout is how long a call waits while paused. Clients give
// up on a call after 60 s (the TypeScript SDK's default) or less, so the
// agent must hear well before that why it waits.
const DefaultGateTimeout = 20 * time.Second

// Server is the MCP server. Calls run one at a time, in arrival order.
// So the page sees one action at a time, and each diff is against the
// view the agent saw last.
type Server struct {
	cfg Config
	srv *sdk.Server

	callMu sync.Mutex // one call at a time

	// pool keeps the tabs the server attached to, and the caller's.
	pool *tabs.Pool[Service]

	mu  sync.Mutex // guards below
	cur *tabs.Entry[Service]
	seq int
	// seen is the latest snapshot the agent was shown. gone holds what it
	// was shown of nodes removed since (for NODE_STALE's nearest match).
	seen *dom.Snapshot
	gone map[string]nodeSig

	sec secrets

	reached bool // Attach worked, or was not needed
}

// maxGone bounds the remembered removed nodes.
const maxGone = 20000

// New makes the server and registers its tools.
func New(cfg Config) *Server {
	if cfg.View == "" {
		cfg.View = ViewDiff
	}
	if cfg.GateTimeout <= 0 {
		cfg.GateTimeout = DefaultGateTimeout
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	s := &Server{cfg: cfg, gone: map[string]nodeSig{}, reached: cfg.Attach == nil || cfg.Service != nil}
	s.pool = tabs.New(cfg.Browser, cfg.NewService)
	// A service may reconnect (the UI's); closedTab drops a closed tab.
	s.pool.KeepClosed = true
	if cfg.Service != nil {
		s.cur, _ = s.pool.Adopt(cfg.Page, cfg.Service, false) // a new pool is open
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "domscope", Title: "domscope DOM tool", Version: cfg.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Capabilities: &sdk.ServerCapabilities{},
	})
	s.registerView()
	s.registerActions()
	s.registerPage()
	s.registerTabs()
	return s
}

// instructions tell a client's model how the tools fit together.
const instructions = `domscope shows a web page as an LLM agent's view: one node per line, "[12] button \"Save\"". ` +
	`Call dom_snapshot to see the page, then act on a node by its id (12, "[12]" or "node_12") with dom_click, dom_type, dom_key, dom_select, dom_hover or dom_scroll. ` +
	`An action answers with what happened and the lines of the view it changed ("~ " changed, now reads, "- " removed, "+ " added), not the whole view; after a navigation to a new page it answers with that page's visible part. ` +
	`Ids stay the same while a node stays on the page. Errors start with a code, say whether to retry, and what to do next.`

// MCP is the SDK server, to serve on any transport.
func (s *Server) MCP() *sdk.Server { return s.srv }

// Run serves one client on t (stdio: &sdk.StdioTransport{}) until it
// disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.srv.Run(ctx, t)
}

// Close closes the services of the tabs the server attached to itself.
func (s *Server) Close() {
	s.mu.Lock()
	s.cur = nil
	s.mu.Unlock()
	s.pool.Close()
}

// service is the current tab's service, or NOT_ATTACHED.
func (s *Server) service() (Service, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return nil, dom.Errorf(dom.NotAttached, nil, "no tab is selected: dom_tabs new or select one")
	}
	return s.cur.Service(), nil
}

// reply is what a tool's body returns. call turns it into the response.
type reply struct {
	text   string
	image  []byte // a PNG
	err    *dom.Error
	hint   string // what to do next, for err (default: by code)
	result *dom.ActionResult
	action *dom.Action
	target string
}

// failed is a reply for err.
func failed(err error) reply { return reply{err: dom.ErrorOf(err)} }

// addTool registers a tool whose arguments decode into In, with a schema
// inferred from In.
func addTool[In any](s *Server, name, desc string, enums map[string][]any, body func(ctx context.Context, in In) reply) {
	tool := &sdk.Tool{Name: name, Description: desc, InputSchema: schemaFor[In](enums)}
	s.srv.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		ctx, cancel := callerDeadline(ctx, req.Params.Meta)
		defer cancel()
		var in In
		raw := req.Params.Arguments
		err := decodeArgs(raw, &in)
		if err == nil {
			err = checkLimits(in)
		}
		return s.call(ctx, name, raw, func(ctx context.Context) reply {
			if err != nil {
				return failed(err)
			}
			return body(ctx, in)
		}), nil
	})
}

// decodeArgs decodes a call's arguments strictly. An unknown argument is
// an error the agent can fix.
func decodeArgs(raw json.RawMessage, into any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return dom.Errorf(dom.ValidationError, nil, "bad arguments: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// call runs one tool call. It waits at the gate, tells the observer, runs
// the body, masks secrets, and answers.
func (s *Server) call(ctx context.Context, tool string, raw json.RawMessage, body func(ctx context.Context) reply) *sdk.CallToolResult {
	waited := time.Now()
	if err := s.cfg.Gate.Wait(ctx, s.cfg.GateTimeout); err != nil {
		r := reply{err: dom.ErrorOf(err), hint: hintPaused}
		c := s.start(tool, raw)
		c.Started = waited // its time is the wait
		return s.answer(r, c)
	}
	s.callMu.Lock()
	defer s.callMu.Unlock()
	c := s.start(tool, raw)
	if s.cfg.Observer != nil {
		s.cfg.Observer(c)
	}
	if err := s.attach(ctx); err != nil {
		return s.answer(reply{err: err, hint: hintNoBrowser}, c)
	}
	var r reply
	func() {
		defer func() {
			if p := recover(); p != nil {
				r = reply{err: dom.Errorf(dom.CDPError, nil, "internal error in %s: %v (please report it)", tool, p)}
			}
		}()
		r = body(ctx)
		r = s.closedTab(ctx, r)
	}()
	return s.answer(r, c)
}

// start numbers a call and tells the observer it began.
func (s *Server) start(tool string, raw json.RawMessage) Call {
	s.mu.Lock()
	s.seq++
	c := Call{Seq: s.seq, Tool: tool, Started: time.Now()}
	s.mu.Unlock()
	args := strings.TrimSpace(string(raw))
	if args == "" || args == "null" {
		args = "{}"
	}
	var probe struct {
		ID NodeID `json:"id"`
	}
	if json.Unmarshal(raw, &probe) == nil {
		c.Target = string(probe.ID)
	}
	c.Args = clipArgs(s.maskArgs(args, c.Target))
	return c
}

// secretArgs are the arguments that carry what is typed, pressed or
// picked.
var secretArgs = []string{"text", "value", "key"}

// maskArgs masks what a call types, presses or picks in a sensitive
// field. It remembers it so no response repeats it. The id is looked up
// in the view the agent saw, else the current snapshot.
// Without an id, the call acts on the focused node (dom_key), so that
// node decides: in the view the agent saw or in the current one.
func (s *Server) maskArgs(args, id string) string {
	if !slices.ContainsFunc(secretArgs, func(k string) bool { return strings.Contains(args, `"`+k+`"`) }) {
		return args
	}
	s.mu.Lock()
	snap := s.seen
	var cur Service
	if s.cur != nil {
		cur = s.cur.Service()
	}
	s.mu.Unlock()
	var now *dom.Snapshot
	if cur != nil {
		now = cur.Current()
	}
	sensitive := false
	if id != "" {
		n := snap.Node(id)
		if n == nil {
			n = now.Node(id)
		}
		sensitive = n.Sensitive()
	} else {
		sensitive = focusSensitive(snap) || focusSensitive(now)
	}
	if !sensitive {
		return args
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return "{}" // cannot tell what it holds: show nothing
	}
	for _, k := range secretArgs {
		if v, ok := m[k].(string); ok && v != "" {
			s.sec.add(v)
			m[k] = dom.Mask
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// answer masks and sends a reply, and tells the observer and the log.
func (s *Server) answer(r reply, c Call) *sdk.CallToolResult {
	text := r.text
	if r.err != nil {
		text = errorText(r.err, r.hint) + text
	}
	text = s.sec.mask(text)
	c.Args = s.sec.mask(c.Args)
	res := &sdk.CallToolResult{IsError: r.err != nil, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
	if r.image != nil {
		res.Content = append(res.Content, &sdk.ImageContent{Data: r.image, MIMEType: "image/png"})
	}
	c.Done, c.Text, c.IsError = true, text, r.err != nil
	c.Ms = float64(time.Since(c.Started).Microseconds()) / 1000
	c.Tokens = flatten.CountTokens(text)
	if r.target != "" {
		c.Target = r.target
	}
	c.Action, c.Result = r.action, r.result
	c.Result = s.maskResult(c.Result)
	if s.cfg.Observer != nil {
		s.cfg.Observer(c)
	}
	if s.cfg.Log != nil {
		outcome := "ok"
		if r.err != nil {
			outcome = string(r.err.Code)
		}
		fmt.Fprintf(s.cfg.Log, "domscope mcp: #%d %s %s → %s, %.0f ms, %d tokens\n", c.Seq, c.Tool, c.Args, outcome, c.Ms, c.Tokens)
	}
	return res
}

// maskResult is a copy of res for the observer. The remembered secrets
// are masked in every string: a dialog's message, a console line, an
// error.
func (s *Server) maskResult(res *dom.ActionResult) *dom.ActionResult {
	if res == nil {
		return nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil
	}
	var out dom.ActionResult
	if json.Unmarshal([]byte(s.sec.mask(string(b))), &out) != nil {
		return nil
	}
	out.Duration = res.Duration
	return &out
}

// SetTab makes svc (on page) the tab the tools act on, as when the person
// at the UI picks another tab. The caller keeps and closes svc.
func (s *Server) SetTab(svc Service, page dom.Page) {
	// The caller's service replaces the server's own of this tab.
	e, err := s.pool.Adopt(page, svc, false)
	if err != nil {
		return // the server is closed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur = e
	s.seen, s.gone = nil, map[string]nodeSig{}
}

// focusSensitive reports whether a node of snap that has the focus is a
// sensitive field. The document has the focus too, so every such node is
// looked at.
func focusSensitive(snap *dom.Snapshot) bool {
	if snap == nil {
		return false
	}
	found := false
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		found = found || n.States["focused"] == "true" && n.Sensitive()
	})
	return found
}

// attach reaches the browser through Config.Attach, once. It runs under
// callMu.
func (s *Server) attach(ctx context.Context) *dom.Error {
	s.mu.Lock()
	done := s.reached
	s.mu.Unlock()
	if done {
		return nil
	}
	a, err := s.cfg.Attach(ctx)
	if err != nil {
		msg := err.Error()
		if de, ok := errors.AsType[*dom.Error](err); ok {
			msg = de.Message
		}
		e := dom.Errorf(dom.AttachFailed, err, "%s", msg)
		e.Recoverable = true // the next call tries again
		return e
	}
	s.mu.Lock()
	s.cfg.Browser = a.Browser
	s.reached = true
	s.mu.Unlock()
	s.pool.SetBrowser(a.Browser)
	s.SetTab(a.Service, a.Page)
	return nil
}
