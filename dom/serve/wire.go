package serve

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"domscope/dom"
	"domscope/dom/query"
	"domscope/dom/render"
	"domscope/dom/serve/sock"
)

// Protocol is the version of the request and reply below. A server
// of another version is not asked: the snapshot goes direct.
const Protocol = sock.Protocol

// Request is one `snapshot` asked of the server: one JSON line.
type Request struct {
	Protocol   int             `json:"protocol"`
	Target     string          `json:"target"`
	Format     string          `json:"format"`
	BackendIDs bool            `json:"backendIds"`
	Shape      query.Shape     `json:"shape"`
	MaxTokens  int             `json:"maxTokens"`
	TierOff    map[string]bool `json:"tierOff"`
	FlattenOff map[string]bool `json:"flattenOff"`
	Timeout    time.Duration   `json:"timeout"`

	// Op is "" for a snapshot, OpCall for an agent CLI command: Tool
	// (an MCP tool, or ToolClose, ToolTab) with Args, on Session's tab
	// or Target's.
	Op      string          `json:"op,omitempty"`
	Session string          `json:"session,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
	// Steps asks for the action's `run` step; Record names a script
	// (an absolute path) the session's steps are written to.
	Steps  bool   `json:"steps,omitempty"`
	Record string `json:"record,omitempty"`

	// For OpArgv (sock.ArgvRequest): the command line, the client's
	// working directory and its variables that matter.
	Argv []string          `json:"argv,omitempty"`
	Dir  string            `json:"dir,omitempty"`
	Env  map[string]string `json:"env,omitempty"`
}

// reply heads the answer: one JSON line, then Length bytes of the
// printed view. A server that dies mid-reply sends fewer; the client
// sees that and goes direct.
type reply struct {
	Protocol int `json:"protocol"`
	// Length is the byte length of the view after the head line.
	Length int `json:"length"`
	// Direct says the server cannot answer this; the client goes direct.
	Direct string `json:"direct,omitempty"`
	// Accepted heads a line sent as soon as the request is read. A
	// server that cannot say that much soon is stopped or stuck.
	Accepted bool `json:"accepted,omitempty"`
	// Error is the snapshot's error, as the direct path would give it.
	Error *Error `json:"error,omitempty"`
}

// Error is an error the server met, as the client reports it. Usage
// marks bad input, which the CLI answers with its usage exit code.
type Error struct {
	Code  dom.Code `json:"code"`
	Text  string   `json:"text"`
	Usage bool     `json:"usage,omitempty"`
}

func (e *Error) Error() string { return e.Text }

// Unwrap gives the code to dom.CodeOf, so the exit code is the same.
func (e *Error) Unwrap() error { return &dom.Error{Code: e.Code, Message: e.Text} }

// errorOf is err as it crosses the socket.
func errorOf(err error) *Error {
	var ue render.UsageError
	if errors.As(err, &ue) {
		return &Error{Text: ue.Msg, Usage: true}
	}
	return &Error{Code: dom.CodeOf(err), Text: err.Error()}
}

// view is how a request's snapshot is printed.
func (r Request) view() render.View {
	return render.View{Format: r.Format, BackendIDs: r.BackendIDs, Shape: r.Shape, MaxTokens: r.MaxTokens, FlattenOff: r.FlattenOff}
}

// maxRequest bounds a request line: a client's is well under 1 KiB.
const maxRequest = 64 << 10

// readRequest reads one request line from a client, up to maxRequest.
func readRequest(r io.Reader) (Request, error) {
	var req Request
	line, err := bufio.NewReader(io.LimitReader(r, maxRequest)).ReadBytes('\n')
	if err == io.EOF && len(line) >= maxRequest {
		return req, fmt.Errorf("request over %d bytes", maxRequest)
	}
	if err != nil {
		return req, err
	}
	if err := json.Unmarshal(line, &req); err != nil {
		return req, fmt.Errorf("bad request: %w", err)
	}
	if req.Protocol != Protocol {
		return req, fmt.Errorf("protocol %d, want %d", req.Protocol, Protocol)
	}
	return req, nil
}

// writeReply sends the head line with the text's length, then the text.
func writeReply(c net.Conn, rep reply, text string) error {
	rep.Protocol = Protocol
	rep.Length = len(text)
	b, _ := json.Marshal(rep)
	b = append(append(b, '\n'), text...)
	if Hooks.Write != nil {
		return Hooks.Write(c, b)
	}
	_, err := c.Write(b)
	return err
}
