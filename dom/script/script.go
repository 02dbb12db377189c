// Package script reads, runs and records `domscope run` scripts. A script
// is JSON lines of actions, each aimed at a node by a query. It runs
// through the same Actor as the UI.
package script

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/query"
)

// Options control Run.
type Options struct {
	// Snapshots prints the flattened snapshot after each step. It is
	// "text", "json", or "" for none.
	Snapshots string
	// Flatten are the flatten options for printed snapshots (zero value:
	// DefaultOptions).
	Flatten *dom.Options
	// KeepGoing runs the remaining steps after a failed one.
	KeepGoing bool
	// Metrics adds each step's performance delta (dom.Action.Metrics).
	Metrics bool
	// StepTimeout bounds one step. Default 60 s.
	StepTimeout time.Duration
	// FindTimeout is how long a target query keeps looking
	// (re-snapshotting) for a node that is not there yet. The page may
	// still render. Default 2 s; negative: look once.
	FindTimeout time.Duration
	// Refs is the snapshot text the script's {"ref":…} targets came from
	// (`--refs FILE`). Without it a ref target is an error.
	Refs *Refs
	// Secret gives the value of a step whose text was withheld when it was
	// recorded (see Withheld), by step number. When it is nil or finds
	// nothing, the step fails. It says which variable to set (SecretEnv).
	Secret func(step int) (string, bool)
}

// Step is one line of a script: an action and its target.
//
//	{"action":"click","target":{"role":"button","name":"Submit"}}
//	{"action":"type","target":{"id":"node_12"},"text":"hello\n"}
//	{"action":"key","key":"ctrl+a"}
//	{"action":"wait","for":{"text":"Saved"},"timeout":5000}
//	{"action":"wait","text":"Saved"} (or "gone", "url", "quiet": ms)
type Step struct {
	Action     string       `json:"action"`
	ID         string       `json:"id,omitempty"`     // shorthand for target {"id": …}
	Target     *query.Query `json:"target,omitempty"` // the node to act on
	Text       string       `json:"text,omitempty"`   // type; prompt text for dialog
	Key        string       `json:"key,omitempty"`
	Modifiers  []string     `json:"modifiers,omitempty"`
	Button     string       `json:"button,omitempty"`
	ClickCount int          `json:"clickCount,omitempty"`
	Force      bool         `json:"force,omitempty"`
	DX         float64      `json:"dx,omitempty"`
	DY         float64      `json:"dy,omitempty"`
	Value      string       `json:"value,omitempty"`
	URL        string       `json:"url,omitempty"`
	Accept     *bool        `json:"accept,omitempty"`
	Dismiss    bool         `json:"dismiss,omitempty"`
	Full       bool         `json:"full,omitempty"`    // snapshot: a full capture, not an incremental refresh
	Ms         int          `json:"ms,omitempty"`      // wait: sleep this long
	For        *query.Query `json:"for,omitempty"`     // wait: until this matches a visible node
	Gone       string       `json:"gone,omitempty"`    // wait: until the view no longer holds this text
	Quiet      int          `json:"quiet,omitempty"`   // wait: until the view stays still this many ms
	Timeout    int          `json:"timeout,omitempty"` // wait for: give up after this many ms (default 5000)
	// viewport: a device by name and/or a size, scale, mobile and touch.
	// touch follows mobile unless given. None of them: the browser's own
	// window.
	Device  string  `json:"device,omitempty"`
	Width   int     `json:"width,omitempty"`
	Height  int     `json:"height,omitempty"`
	Scale   float64 `json:"scale,omitempty"`
	Mobile  *bool   `json:"mobile,omitempty"`
	Touch   *bool   `json:"touch,omitempty"`
	Comment string  `json:"comment,omitempty"`
	// Expect is what the step should do (dom.Expect): the step fails with
	// EXPECTATION_FAILED, and the run stops, when it does not.
	Expect *dom.Expect `json:"expect,omitempty"`
}

// StepResult is what Run prints for each step. It is the action's result
// plus where it came from and what the target query resolved to.
type StepResult struct {
	Step   int    `json:"step"`
	Line   int    `json:"line"`
	Target string `json:"target,omitempty"` // resolved node: "node_12 button \"Submit\""
	dom.ActionResult
}

// scriptKinds are the step actions Run knows: Do's plus its own.
var scriptKinds = func() []string {
	kinds := []string{"wait"}
	for _, k := range dom.ActionKinds {
		kinds = append(kinds, string(k))
	}
	return kinds
}()

// maxWait bounds any wait a script asks for.
const maxWait = 60 * time.Second

// Run replays JSON lines against a, one Step each. Blank lines and lines
// starting with # or // are skipped. It writes one StepResult JSON line
// per step to w, each followed by the snapshot when opts.Snapshots is
// set. It stops at the first failed step and returns its error. With
// KeepGoing it runs them all and returns an error that counts the
// failures.
func Run(ctx context.Context, a dom.Actor, r io.Reader, w io.Writer, opts Options) error {
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = 60 * time.Second
	}
	if opts.FindTimeout == 0 {
		opts.FindTimeout = 2 * time.Second
	}
	switch opts.Snapshots {
	case "", "text", "json":
	default:
		return dom.Errorf(dom.ValidationError, nil, "snapshots format %q: use text or json", opts.Snapshots)
	}
	lr := newLineReader(r)
	lineNo, step, failed := 0, 0, 0
	var firstErr error
	for {
		sl, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return dom.Errorf(dom.ValidationError, err, "reading the script after line %d", lineNo)
		}
		lineNo++
		line := strings.TrimSpace(sl.text)
		if !sl.tooLong && (line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//")) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		step++
		var res StepResult
		if sl.tooLong {
			res.Action = "?"
			res.Error = dom.Errorf(dom.ValidationError, nil, "line %d is %d bytes long: a step may have at most %d (1 MiB)", lineNo, sl.size, MaxScriptLine)
		} else {
			res = runStep(ctx, a, line, lineNo, step, opts)
		}
		res.Step, res.Line = step, lineNo
		if err := writeJSONLine(w, res); err != nil {
			return err
		}
		mode := opts.Snapshots
		if mode == "" && res.Action == "snapshot" {
			mode = "text" // a snapshot step always shows what it took
		}
		if res.Success && mode != "" {
			reread := res.Action == "wait" && res.Snapshot == nil // a sleep read nothing
			if err := printSnapshot(ctx, a, w, mode, opts, step, reread); err != nil && !opts.KeepGoing {
				return err
			}
		}
		if !res.Success {
			failed++
			err := fmt.Errorf("step %d (line %d, %s): %w", step, lineNo, res.Action, res.Error)
			if firstErr == nil {
				firstErr = err
			}
			// Without a page every further step would fail the same way.
			if !opts.KeepGoing || res.Error.Code == dom.NotAttached {
				return err
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d steps failed; first: %w", failed, step, firstErr)
	}
	return nil
}

// runStep parses and performs one line, step number n of the script.
func runStep(ctx context.Context, a dom.Actor, line string, lineNo, n int, opts Options) StepResult {
	st, err := parseStep(line, lineNo)
	if err != nil {
		res := StepResult{ActionResult: dom.ActionResult{Action: dom.ActionKind(st.Action), Error: dom.ErrorOf(err)}}
		if res.Action == "" {
			res.Action = "?"
		}
		return res
	}
	secret := ""
	if Withheld(st) {
		v, ok := "", false
		if opts.Secret != nil {
			v, ok = opts.Secret(n)
		}
		if !ok || v == "" {
			return StepResult{ActionResult: dom.ActionResult{Action: dom.ActionKind(st.Action), Error: dom.Errorf(dom.ValidationError, nil,
				"step %d (line %d) holds %s, a value withheld when it was recorded (typed into a sensitive field): set the environment variable %s to the real value and run again (it goes to the page only, never to the output)",
				n, lineNo, dom.Mask, SecretEnv(n))}}
		}
		secret = v
	}
	return RunStep(ctx, a, st, secret, opts)
}

// RunStep performs one parsed step as Run does. A step that Withheld a
// value gets secret in its place. The secret goes to the page only: an
// error message that would repeat it has it masked. A withheld step with
// no secret fails.
func RunStep(ctx context.Context, a dom.Actor, st Step, secret string, opts Options) (res StepResult) {
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = 60 * time.Second
	}
	if opts.FindTimeout == 0 {
		opts.FindTimeout = 2 * time.Second
	}
	start := time.Now()
	fail := func(err error) StepResult {
		res.Success = false
		res.Error = dom.ErrorOf(err)
		res.Duration = time.Since(start)
		res.DurationMs = float64(res.Duration.Microseconds()) / 1000
		return res
	}
	res.Action = dom.ActionKind(st.Action)
	if res.Action == "" {
		res.Action = "?"
	}
	if Withheld(st) {
		if secret == "" {
			return fail(dom.Errorf(dom.ValidationError, nil, "the step holds %s, a value withheld when it was recorded: give the real value", dom.Mask))
		}
		st = Fill(st, secret)
		defer func() { res.ActionResult = concealSecret(res.ActionResult, secret) }()
	}
	if d := openDialog(a); d != nil && st.Action != "dialog" && (st.Action != "wait" || !st.sleeps()) {
		// Say what blocks the step, not what the target query ran into.
		res.Dialog = d
		return fail(dom.DialogBlocks(d, "cannot "+st.Action))
	}
	sctx, cancel := context.WithTimeout(ctx, opts.StepTimeout)
	defer cancel()

	switch st.Action {
	case "wait":
		return runWait(sctx, a, st, start, fail, opts.Refs)
	}

	act := dom.Action{Kind: dom.ActionKind(st.Action), ID: st.ID, Button: st.Button, ClickCount: st.ClickCount, Force: st.Force, Expect: st.Expect, Metrics: opts.Metrics,
		Text: st.Text, Key: st.Key, Modifiers: st.Modifiers, DX: st.DX, DY: st.DY, Value: st.Value, URL: st.URL, Full: st.Full}
	if st.Action == "viewport" {
		vp, err := st.viewport()
		if err != nil {
			return fail(err)
		}
		act.Viewport = &vp
	}
	if st.Action == "dialog" {
		act.Accept = !st.Dismiss
		if st.Accept != nil {
			act.Accept = *st.Accept
		}
	}
	if st.Target != nil {
		n, err := ResolveTarget(sctx, a, *st.Target, opts)
		if err != nil {
			return fail(err)
		}
		act.ID = n.ID
		res.Target = dom.NodeLabel(n, 60)
	}
	r := a.Do(sctx, act)
	res.ActionResult = r
	return res
}

// sleeps reports whether a wait step only sleeps: it reads no page.
func (st Step) sleeps() bool {
	return st.For == nil && st.Text == "" && st.Gone == "" && st.URL == "" && st.Quiet == 0
}

// runWait sleeps, or waits until a query matches a visible node, or
// until the view holds a text (or no longer does), the URL holds a part
// or the view stays still. A wait for something answers with the
// change it saw; a sleep reads no page (the next step's "later", or the
// snapshot printed after it, says what changed).
func runWait(ctx context.Context, a dom.Actor, st Step, start time.Time, fail func(error) StepResult, refs *Refs) StepResult {
	done := func() StepResult {
		d := time.Since(start)
		return StepResult{ActionResult: dom.ActionResult{Action: "wait", Success: true, Duration: d, DurationMs: float64(d.Microseconds()) / 1000}}
	}
	if st.sleeps() {
		d := time.Duration(st.Ms) * time.Millisecond
		if d <= 0 || d > maxWait {
			return fail(dom.Errorf(dom.ValidationError, nil, "wait needs \"ms\" between 1 and %d, or something to wait for", maxWait.Milliseconds()))
		}
		select {
		case <-time.After(d):
			return done()
		case <-ctx.Done():
			return fail(dom.Errorf(dom.Timeout, ctx.Err(), "wait was cancelled"))
		}
	}
	limit := time.Duration(st.Timeout) * time.Millisecond
	if limit <= 0 {
		limit = 5 * time.Second
	}
	if limit > maxWait {
		limit = maxWait
	}
	if st.For == nil {
		text, gone := st.Text, false
		if st.Gone != "" {
			text, gone = st.Gone, true
		}
		w, err := WaitUntil(ctx, a, Until{Text: text, Gone: gone, URL: st.URL, Quiet: time.Duration(st.Quiet) * time.Millisecond, Timeout: limit})
		if err != nil {
			return fail(err)
		}
		r := done()
		r.Changes = w.Changes
		r.Snapshot = dom.StatOf(w.After)
		return r
	}
	deadline := time.Now().Add(limit)
	var lastErr error
	for {
		if _, err := a.Snapshot(ctx, true); err != nil {
			lastErr = err
			if c := dom.CodeOf(err); c == dom.NotAttached || c == dom.DialogOpen {
				return fail(err)
			}
		} else if n, err := ResolveTarget(ctx, a, *st.For, Options{Refs: refs, FindTimeout: -1}); err == nil {
			r := done()
			r.Target = dom.NodeLabel(n, 60)
			return r
		} else if st.For.Ref != "" && dom.CodeOf(err) == dom.ValidationError {
			return fail(err) // waiting will not mend the script
		} else {
			lastErr = err
		}
		if time.Now().After(deadline) {
			return fail(dom.Errorf(dom.Timeout, lastErr, "waited %s for %s", limit, st.For))
		}
		select {
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return fail(dom.Errorf(dom.Timeout, ctx.Err(), "wait was cancelled"))
		}
	}
}

func writeJSONLine(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(flatten.EscapeJSON(buf.Bytes()))
	return err
}

// ResolveTarget resolves a step's target as run does; the step-through UI
// shows what it picks. A ref goes through opts.Refs. Anything else is a
// query, waited for up to opts.FindTimeout.
func ResolveTarget(ctx context.Context, a dom.Actor, q query.Query, opts Options) (*dom.VirtualNode, error) {
	if q.Ref != "" {
		limit := opts.FindTimeout
		if limit < 0 {
			limit = 0
		}
		return resolveRef(ctx, a, opts.Refs, q.Ref, limit)
	}
	return resolveWaiting(ctx, a, q, opts.FindTimeout)
}

// resolveWaiting resolves q. While nothing matches, it re-snapshots and
// tries again until limit. A replayed step may run before the page has
// rendered what the agent saw.
func resolveWaiting(ctx context.Context, a dom.Actor, q query.Query, limit time.Duration) (*dom.VirtualNode, error) {
	deadline := time.Now().Add(limit)
	for {
		n, err := Resolve(ctx, a, q)
		if err == nil || dom.CodeOf(err) != dom.NodeNotFound || q.ID != "" || !time.Now().Before(deadline) {
			return n, err
		}
		select {
		case <-time.After(150 * time.Millisecond):
		case <-ctx.Done():
			return nil, err
		}
		if _, serr := a.Snapshot(ctx, true); serr != nil {
			return nil, err
		}
	}
}
