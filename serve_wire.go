package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"time"

	"domscope/dom"
	"domscope/dom/query"
)

// serveProtocol is the version of the request and reply below. A server
// of another version is not asked: the snapshot goes direct.
const serveProtocol = 2

// serveRequest is one `snapshot` asked of the server: one JSON line.
type serveRequest struct {
	Protocol   int             `json:"protocol"`
	Target     string          `json:"target"`
	Format     string          `json:"format"`
	BackendIDs bool            `json:"backendIds"`
	Shape      query.Shape     `json:"shape"`
	MaxTokens  int             `json:"maxTokens"`
	TierOff    map[string]bool `json:"tierOff"`
	FlattenOff map[string]bool `json:"flattenOff"`
	Timeout    time.Duration   `json:"timeout"`
}

// serveReply heads the answer: one JSON line, then Length bytes of the
// printed view. A server that dies mid-reply sends fewer; the client
// sees that and goes direct.
type serveReply struct {
	Protocol int `json:"protocol"`
	// Length is the byte length of the view after the head line.
	Length int `json:"length"`
	// Direct says the server cannot answer this; the client goes direct.
	Direct string `json:"direct,omitempty"`
	// Accepted heads a line sent as soon as the request is read. A
	// server that cannot say that much soon is stopped or stuck.
	Accepted bool `json:"accepted,omitempty"`
	// Error is the snapshot's error, as the direct path would give it.
	Error *servedError `json:"error,omitempty"`
}

// servedError is an error the server met, as the client reports it.
type servedError struct {
	Code  dom.Code `json:"code"`
	Text  string   `json:"text"`
	Usage bool     `json:"usage,omitempty"`
}

func (e *servedError) Error() string { return e.Text }

// Unwrap gives the code to dom.CodeOf, so the exit code is the same.
func (e *servedError) Unwrap() error { return &dom.Error{Code: e.Code, Message: e.Text} }

// errorOf is err as it crosses the socket.
func errorOf(err error) *servedError {
	var ue usageError
	if errors.As(err, &ue) {
		return &servedError{Text: ue.msg, Usage: true}
	}
	return &servedError{Code: dom.CodeOf(err), Text: err.Error()}
}

// asError is the error the client returns for a served one.
func (e *servedError) asError() error {
	if e.Usage {
		return usageError{e.Text}
	}
	return e
}

// request is what o asks of the server.
func (o snapshotOpts) request(conn connFlags, st *settings) serveRequest {
	return serveRequest{
		Protocol: serveProtocol, Target: conn.target, Format: o.format, BackendIDs: o.backendIDs,
		Shape: o.view.Shape, MaxTokens: o.view.maxTokens,
		TierOff: st.tierOff, FlattenOff: st.flattenOff, Timeout: conn.timeout,
	}
}

// opts are the snapshot options a request carries. A served snapshot
// is always of the cdp capture.
func (r serveRequest) opts() snapshotOpts {
	return snapshotOpts{format: r.Format, backendIDs: r.BackendIDs, capture: "cdp", view: viewFlags{Shape: r.Shape, maxTokens: r.MaxTokens}}
}

// servable says whether a server may answer this snapshot. What it does
// not do (emulation, screenshots, stats, other capture paths, a tab of
// its own) goes direct.
func servable(conn connFlags, o snapshotOpts, mode string) bool {
	if o.direct || mode == classicCapture || o.capture != "cdp" || o.shot != "" || o.stats {
		return false
	}
	if conn.launch || conn.demo || conn.url != "" || conn.viewport != "" || conn.device != "" || conn.scale != 0 {
		return false
	}
	return conn.allowRemote || loopbackEndpoint(conn.endpoint)
}

// loopbackEndpoint reports whether endpoint is on this machine. Another
// one needs --allow-remote, which the direct path checks.
func loopbackEndpoint(endpoint string) bool {
	u, err := url.Parse(normalEndpoint(endpoint))
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// askServer asks the endpoint's server for the snapshot. ok is false
// when there is no server, or it cannot answer: then go direct. A broken
// answer goes direct too; nothing was printed.
func askServer(ctx context.Context, path string, req serveRequest) (text string, ok bool, err error) {
	if privateDir(filepath.Dir(path), false) != nil || ourSocket(path) != nil {
		return "", false, nil // no server, or not a safe one
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return "", false, nil
	}
	defer c.Close()
	if dl, has := ctx.Deadline(); has {
		_ = c.SetDeadline(dl)
	}
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return "", false, nil
	}
	r := bufio.NewReader(c)
	// A stopped (^Z) or stuck server does not accept: go direct soon.
	accept := time.Now().Add(acceptWait)
	if dl, has := ctx.Deadline(); has && dl.Before(accept) {
		accept = dl
	}
	_ = c.SetReadDeadline(accept)
	rep, err := readHead(r)
	if err != nil || !rep.Accepted {
		return "", false, ctxErr(ctx)
	}
	dl, _ := ctx.Deadline()
	_ = c.SetReadDeadline(dl)
	if rep, err = readHead(r); err != nil {
		return "", false, ctxErr(ctx)
	}
	if rep.Direct != "" {
		return "", false, nil
	}
	if rep.Error != nil {
		return "", true, rep.Error.asError()
	}
	if rep.Length < 0 || rep.Length > maxServedView {
		return "", false, nil
	}
	// All of it before anything is printed: a cut-off view goes direct.
	body := make([]byte, rep.Length)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", false, ctxErr(ctx)
	}
	if extra, _ := r.Peek(1); len(extra) > 0 {
		return "", false, nil
	}
	return string(body), true, nil
}

// acceptWait is how long a client waits for the server to accept.
const acceptWait = 2 * time.Second

// errNotServed is a head line the client cannot use.
var errNotServed = errors.New("not a reply of this version")

// readHead reads one head line of a reply.
func readHead(r *bufio.Reader) (serveReply, error) {
	var rep serveReply
	line, err := r.ReadBytes('\n')
	if err != nil {
		return rep, err
	}
	if json.Unmarshal(line, &rep) != nil || rep.Protocol != serveProtocol {
		return rep, errNotServed
	}
	return rep, nil
}

// ctxErr is the command's timeout when it ran out while the server
// worked. Else nil: the server went away, and the snapshot goes direct.
func ctxErr(ctx context.Context) error {
	if ctx.Err() != nil {
		return dom.Errorf(dom.Timeout, ctx.Err(), "domscope serve did not answer in time: raise --timeout, or pass --direct")
	}
	return nil
}

// maxRequest bounds a request line: a client's is well under 1 KiB.
const maxRequest = 64 << 10

// readRequest reads one request line from a client, up to maxRequest.
func readRequest(r io.Reader) (serveRequest, error) {
	var req serveRequest
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
	if req.Protocol != serveProtocol {
		return req, fmt.Errorf("protocol %d, want %d", req.Protocol, serveProtocol)
	}
	return req, nil
}

// maxServedView bounds the length a client believes: 1 GiB.
const maxServedView = 1 << 30

// writeReply sends the head line with the text's length, then the text.
func writeReply(c net.Conn, rep serveReply, text string) error {
	rep.Protocol = serveProtocol
	rep.Length = len(text)
	b, _ := json.Marshal(rep)
	b = append(append(b, '\n'), text...)
	if serveTest.write != nil {
		return serveTest.write(c, b)
	}
	_, err := c.Write(b)
	return err
}
