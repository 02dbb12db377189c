package main

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

// opts are the snapshot options a request carries. A served snapshot
// is always of the cdp capture.
func (r serveRequest) opts() snapshotOpts {
	return snapshotOpts{format: r.Format, backendIDs: r.BackendIDs, capture: "cdp", view: viewFlags{Shape: r.Shape, maxTokens: r.MaxTokens}}
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
