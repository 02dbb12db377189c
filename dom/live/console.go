package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"domscope/dom"
	"domscope/dom/urls"
)

// consoleLog records the console errors, warnings and uncaught
// exceptions that the page logs while an action runs. That includes
// frames the service follows. It keeps only a message's level, its text
// and the script position. The text is clipped, white space collapsed,
// and values typed into sensitive fields are masked. Objects logged are
// read by their description, never fetched.
type consoleLog struct {
	mu      sync.Mutex
	armed   bool
	entries []dom.ConsoleEntry
	more    int
	// secrets are values typed into sensitive fields: a page that logs
	// them must not put them in a result.
	secrets []string
}

// Bounds on what one action lists.
const (
	maxConsoleListed = 20
	maxConsoleText   = 300
)

// consoleEvents are the events the log follows.
var consoleEvents = []string{"Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded"}

func (l *consoleLog) begin() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.armed, l.entries, l.more = true, nil, 0
}

// end stops recording and returns what was logged since begin (ok is
// false when it was not recording).
func (l *consoleLog) end() (_ []dom.ConsoleEntry, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.armed {
		return nil, false
	}
	l.armed = false
	out := l.entries
	if l.more > 0 {
		out = append(out, dom.ConsoleEntry{Level: "info", Text: fmt.Sprintf("%d more console errors and warnings not listed", l.more)})
	}
	l.entries = nil
	return out, true
}

// remember keeps a value typed into a sensitive field, to mask.
func (l *consoleLog) remember(v string) {
	v = strings.TrimSuffix(v, "\n")
	if len(v) < 3 { // a shorter one would mask letters everywhere
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.secrets) >= maxConsoleSecrets {
		l.secrets = l.secrets[1:]
	}
	l.secrets = append(l.secrets, v)
}

// maxConsoleSecrets bounds the remembered values.
const maxConsoleSecrets = 100

// The fields read of each event: nothing else is decoded.
type (
	remoteObject struct {
		Type        string          `json:"type"`
		Value       json.RawMessage `json:"value"`
		Unser       string          `json:"unserializableValue"`
		Description string          `json:"description"`
	}
	callFrame struct {
		URL        string `json:"url"`
		LineNumber int    `json:"lineNumber"`
	}
	consoleAPIEvent struct {
		Type       string         `json:"type"`
		Args       []remoteObject `json:"args"`
		StackTrace *struct {
			CallFrames []callFrame `json:"callFrames"`
		} `json:"stackTrace"`
	}
	exceptionEvent struct {
		Details struct {
			Text       string        `json:"text"`
			URL        string        `json:"url"`
			LineNumber int           `json:"lineNumber"`
			Exception  *remoteObject `json:"exception"`
		} `json:"exceptionDetails"`
	}
	logEntryEvent struct {
		Entry struct {
			Level      string `json:"level"`
			Text       string `json:"text"`
			URL        string `json:"url"`
			LineNumber int    `json:"lineNumber"`
		} `json:"entry"`
	}
)

// on records one event.
func (l *consoleLog) on(method string, raw json.RawMessage) {
	l.mu.Lock()
	armed := l.armed
	l.mu.Unlock()
	if !armed {
		return
	}
	var e dom.ConsoleEntry
	var url string
	var line int
	switch method {
	case "Runtime.consoleAPICalled":
		var ev consoleAPIEvent
		if json.Unmarshal(raw, &ev) != nil {
			return
		}
		switch ev.Type {
		case "error", "assert":
			e.Level = "error"
		case "warning":
			e.Level = "warning"
		default:
			return
		}
		parts := make([]string, 0, len(ev.Args))
		for _, a := range ev.Args {
			parts = append(parts, a.text())
		}
		e.Text = strings.Join(parts, " ")
		if ev.StackTrace != nil && len(ev.StackTrace.CallFrames) > 0 {
			url, line = ev.StackTrace.CallFrames[0].URL, ev.StackTrace.CallFrames[0].LineNumber
		}
	case "Runtime.exceptionThrown":
		var ev exceptionEvent
		if json.Unmarshal(raw, &ev) != nil {
			return
		}
		e.Level, e.Text = "error", ev.Details.Text
		if x := ev.Details.Exception; x != nil && x.Description != "" {
			msg, _, _ := strings.Cut(x.Description, "\n    at ") // the message, not the stack
			if e.Text == "" {
				e.Text = msg
			} else {
				e.Text += " " + msg // "Uncaught" and what
			}
		}
		url, line = ev.Details.URL, ev.Details.LineNumber
	case "Log.entryAdded":
		var ev logEntryEvent
		if json.Unmarshal(raw, &ev) != nil || (ev.Entry.Level != "error" && ev.Entry.Level != "warning") {
			return
		}
		if strings.HasSuffix(ev.Entry.URL, "/favicon.ico") {
			return // the browser's own late fetch, never the action's doing
		}
		e.Level, e.Text = ev.Entry.Level, ev.Entry.Text
		url, line = ev.Entry.URL, ev.Entry.LineNumber
	default:
		return
	}
	if url != "" {
		e.Source = fmt.Sprintf("%s:%d", urls.Redact(url), line+1)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.armed {
		return
	}
	e.Text = l.clean(e.Text)
	if len(l.entries) >= maxConsoleListed {
		l.more++
		return
	}
	l.entries = append(l.entries, e)
}

// clean collapses white space, masks known secrets and clips.
func (l *consoleLog) clean(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for _, v := range l.secrets {
		s = strings.ReplaceAll(s, v, dom.Mask)
	}
	return dom.Clip(s, maxConsoleText)
}

// text is a logged value as the console would print it, roughly.
func (o remoteObject) text() string {
	switch {
	case o.Type == "string":
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
	case o.Unser != "":
		return o.Unser
	case len(o.Value) > 0 && o.Type != "object" && o.Type != "function":
		return string(o.Value)
	case o.Description != "":
		return o.Description
	}
	return o.Type
}

// listConsole puts what the action logged into res once.
func (s *Service) listConsole(res *dom.ActionResult) {
	if entries, ok := s.cons.end(); ok {
		res.Console = entries
	}
}

// watchConsole follows the console of one session (the page, or an
// out-of-process frame) of page p until the page is left.
func (s *Service) watchConsole(ctx context.Context, p dom.Page, sess dom.Session) {
	s.mu.Lock()
	pctx := s.pageCtx
	live := s.page == p
	s.mu.Unlock()
	if !live {
		return
	}
	s.forward(pctx, sess, consoleEvents, s.cons.on)
	_ = sess.Call(ctx, "Runtime.enable", nil, nil)
	_ = sess.Call(ctx, "Log.enable", nil, nil)
}
