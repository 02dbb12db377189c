package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom"
)

// The go-sdk's stdio reader ends the session on the first line that is
// not a well-formed JSON-RPC message (modelcontextprotocol/go-sdk#1209).
// So one stray line from a client would close the browser tab. Stdio puts
// a line filter in front of it. A bad line gets the JSON-RPC error it
// deserves, and the session goes on.

// JSON-RPC 2.0 error codes for lines that never reach the server.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// maxLine bounds one line, as the SDK's own reader does.
const maxLine = sdk.DefaultMaxLineLength

// Stdio is the stdio transport on in and out, behind the line filter.
// log, when set, gets one line per refused line.
func Stdio(in io.Reader, out io.Writer, log io.Writer) sdk.Transport {
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	f := &lineFilter{in: in, pass: pw, out: w, log: log}
	go f.run()
	return &sdk.IOTransport{Reader: pr, Writer: nopCloser{w}}
}

// lockedWriter keeps the SDK's messages and the filter's errors whole:
// each is one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// lineFilter passes good lines to the SDK and answers bad ones itself.
type lineFilter struct {
	in   io.Reader
	pass *io.PipeWriter
	out  io.Writer
	log  io.Writer
}

func (f *lineFilter) run() {
	r := bufio.NewReaderSize(f.in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if ok := f.line(line, tooLong); !ok {
				return // the session is over
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			_ = f.pass.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line without its end. A line longer than maxLine is
// read to its end and dropped: tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// line passes one line on, or answers it with an error. It reports false
// when the SDK's end of the pipe is closed.
func (f *lineFilter) line(line []byte, tooLong bool) bool {
	code, id, why := 0, json.RawMessage("null"), ""
	if tooLong {
		code, why = codeInvalidRequest, fmt.Sprintf("the message is longer than %d bytes", maxLine)
	} else {
		code, id, why = check(line)
	}
	if code == 0 {
		_, err := f.pass.Write(append(line, '\n'))
		return err == nil
	}
	msg := "Parse error"
	if code == codeInvalidRequest {
		msg = "Invalid Request"
	}
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": msg + ": " + why},
	})
	_, _ = f.out.Write(append(resp, '\n'))
	if f.log != nil {
		fmt.Fprintf(f.log, "domscope mcp: refused a line (%s: %s): %s\n", msg, why, dom.Clip(string(line), 80))
	}
	return true
}

// check says whether line is one JSON-RPC 2.0 message the SDK can read.
// If not, it gives the error code, the id to answer with (null when
// unknown) and why.
func check(line []byte) (code int, id json.RawMessage, why string) {
	null := json.RawMessage("null")
	if !json.Valid(line) {
		if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
			return codeParseError, null, "the line starts with a byte order mark"
		}
		return codeParseError, null, "the line is not one JSON value"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
			return codeInvalidRequest, null, "batches are not supported (MCP 2025-06-18): send one message a line"
		}
		return codeInvalidRequest, null, "a message is a JSON object"
	}
	if raw, ok := m["id"]; ok {
		var v any
		_ = json.Unmarshal(raw, &v)
		switch v.(type) {
		case nil, string, float64:
			id = raw
		default:
			return codeInvalidRequest, null, "id must be a string, a number or null"
		}
	} else {
		id = null
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return codeInvalidRequest, id, `"jsonrpc" must be "2.0"`
	}
	if raw, ok := m["method"]; ok {
		var method string
		if json.Unmarshal(raw, &method) != nil {
			return codeInvalidRequest, id, "method must be a string"
		}
		if p, ok := m["params"]; ok {
			if t := bytes.TrimSpace(p); len(t) == 0 || (t[0] != '{' && t[0] != '[' && string(t) != "null") {
				return codeInvalidRequest, id, "params must be an object or an array"
			}
		}
		return 0, nil, ""
	}
	// A response to a request of the server's.
	if string(id) == "null" {
		return codeInvalidRequest, id, "a message needs a method, or an id and a result or error"
	}
	_, hasResult := m["result"]
	rawErr, hasErr := m["error"]
	if hasResult == hasErr {
		return codeInvalidRequest, id, "a response has a result or an error"
	}
	if hasErr {
		var e struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(rawErr, &e) != nil {
			return codeInvalidRequest, id, "error must be an object with a code and a message"
		}
	}
	return 0, nil, ""
}
