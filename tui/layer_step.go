package tui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/script"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

// Stepping through a script in the UI (`domscope run --ui FILE`). A panel
// above the details shows the current step. It shows the node its target
// resolves to, or why nothing matches. That node is selected in both
// panes, so the browser highlights it. The keys:
//   - a runs the step.
//   - A runs on to the end or the next failure.
//   - S skips the step.
//   - E edits its line and runs it again.
//
// Between steps the person can act by hand. The recorder keeps the steps
// run and the manual actions in the order they happened. So `w` (and
// --record) write the reproduction.

// stepper is the loaded script and where the person is in it.
type stepper struct {
	name  string
	lines []script.Line
	refs  *script.Refs
	i     int  // the current step; len(lines): done
	all   bool // running on to the end or the next failure

	// what the current step's target resolves to now
	target   string // a node label, "" when it resolves to nothing
	targetID string
	miss     string // why it resolves to nothing: the error, with near misses
	secret   bool   // the target is a sensitive field
	seq      int    // preview generation: an older reply is dropped
	selected int    // the step whose node was last selected (-1: none)

	last    *script.StepResult // the last attempt at step lastIdx
	lastIdx int
	ran     int
	skipped int
	// recorded counts the recorder's entries that are step attempts. The
	// rest of its log is what the person did by hand.
	recorded int
}

// stepPanelH is the panel's height: a border, four lines.
const stepPanelH = 6

func newStepper(cfg Config) *stepper {
	if len(cfg.Script) == 0 {
		return nil
	}
	name := cfg.ScriptName
	if name == "" {
		name = "script"
	}
	return &stepper{name: name, lines: append([]script.Line(nil), cfg.Script...), refs: cfg.Refs, selected: -1, lastIdx: -1}
}

func (s *stepper) done() bool { return s.i >= len(s.lines) }

// stepPreviewMsg: what the current step's target resolves to.
type stepPreviewMsg struct {
	seq, idx int
	id       string
	label    string
	secret   bool
	err      error
}

// stepDoneMsg: a step ran; snap is the snapshot after it.
type stepDoneMsg struct {
	idx  int
	res  script.StepResult
	snap snapshotMsg
}

// stepCtx is what the stepper may read. That is what a layer reads, plus
// the page it acts on and the recorder. Like a layer, it returns what it
// wants the model to do as an action.
type stepCtx struct {
	*layerCtx
	actor dom.Actor // nil without a live page
	ctx   context.Context
	rec   *script.Recorder
}

// key runs, runs on, skips or edits the current step.
func (s *stepper) key(x *stepCtx, a keymap.Command) action {
	if s == nil {
		return flash{"no script loaded: domscope run --ui FILE steps through one", true}
	}
	if s.done() {
		return flash{s.summary() + " · w writes the session as a script", false}
	}
	switch a {
	case keymap.StepRun:
		s.all = false
		return s.run(x)
	case keymap.StepAll:
		s.all = true
		return s.run(x)
	case keymap.StepSkip:
		s.all = false
		s.skipped++
		at := s.i + 1
		s.i++
		s.last = nil
		return actions{flash{fmt.Sprintf("skipped step %d", at), false}, run{s.preview(x)}}
	case keymap.StepEdit:
		return s.edit(x, "")
	}
	return nil
}

// summary says how far the script got.
func (s *stepper) summary() string {
	return fmt.Sprintf("the script is done: %d of %d steps run, %d skipped", s.ran, len(s.lines), s.skipped)
}

// run runs the current step. When its value was withheld, it first asks
// for it in a masked prompt.
func (s *stepper) run(x *stepCtx) action {
	ln := s.lines[s.i]
	if ln.Err != nil {
		s.all = false
		return flash{fmt.Sprintf("step %d does not parse: %s · E edits it, S skips it", s.i+1, dom.ErrorOf(ln.Err).Message), true}
	}
	if script.Withheld(ln.Step) {
		idx := s.i
		p := newPrompt(fmt.Sprintf("step %d: the value withheld when recorded", idx+1), "", "",
			"typed into the page only, never shown or written · esc cancels", x.w,
			stepSubmit(func(s *stepper, x *stepCtx, v string) action {
				if v == "" {
					return flash{"no value given: the step did not run", true}
				}
				return s.exec(x, idx, v)
			}))
		p.conceal()
		p.cancelled = func(*Model) { s.all = false }
		return open{p}
	}
	return s.exec(x, s.i, "")
}

// exec runs step idx, with secret in place of a withheld value. It
// records it and takes the snapshot after it.
func (s *stepper) exec(x *stepCtx, idx int, secret string) action {
	if x.actor == nil {
		return flash{"no browser: steps cannot run", true}
	}
	st := s.lines[idx].Step
	shown, _ := script.StepLine(script.Masked(st, s.secret))
	desc := fmt.Sprintf("step %d: %s", idx+1, shown)
	actor, rec, before := x.actor, x.rec, x.doc.snap
	opts := script.Options{Refs: s.refs}
	return startAction{views.Clean(fmt.Sprintf("step %d/%d: %s", idx+1, len(s.lines), st.Action)), func(ctx context.Context, gen int) tea.Msg {
		res := script.RunStep(ctx, actor, st, secret, opts)
		// recorded as written (a withheld value stays withheld), as it happened
		recErr := rec.RecordStep(before, st, res.ActionResult, desc)
		r := res.ActionResult
		out := stepDoneMsg{idx: idx, res: res, snap: snapshotMsg{gen: gen, res: &r, desc: desc, recErr: recErr}}
		if r.Dialog != nil || (r.Error != nil && (r.Error.Code == dom.NotAttached || r.Error.Code == dom.TargetNotFound || r.Error.Code == dom.DialogOpen)) {
			return out // no page to snapshot, or a dialog to answer first
		}
		out.snap.snap, out.snap.err = actor.Snapshot(ctx, false)
		return out
	}}
}

// advance moves on once the snapshot after a step is shown. It goes to
// the next step when it worked (and on, running with A). Else it stays,
// with its error.
func (s *stepper) advance(x *stepCtx, msg stepDoneMsg) action {
	if msg.idx != s.i {
		return nil
	}
	res := msg.res
	s.last, s.lastIdx = &res, msg.idx
	if !res.Success {
		s.all = false
		why := "failed"
		if res.Error != nil {
			why = string(res.Error.Code) + ": " + res.Error.Message
		}
		return actions{flash{fmt.Sprintf("step %d failed: %s · act by hand, then a retries, S skips, E edits", s.i+1, why), true}, run{s.preview(x)}}
	}
	s.ran++
	s.i++
	if s.done() {
		s.all = false
		return flash{s.summary() + " · w writes the session as a script", false}
	}
	if s.all {
		return s.run(x)
	}
	return actions{flash{fmt.Sprintf("step %d ok · step %d is next (a runs it)", s.i, s.i+1), false}, run{s.preview(x)}}
}

// preview resolves the current step's target on the page as it is now.
// It runs in a command.
func (s *stepper) preview(x *stepCtx) tea.Cmd {
	if s == nil || s.done() || x.actor == nil {
		return nil
	}
	s.seq++
	s.target, s.targetID, s.miss, s.secret = "", "", "", false
	ln := s.lines[s.i]
	if ln.Err != nil {
		return nil
	}
	q := ln.Step.TargetQuery()
	if q == nil {
		return nil
	}
	seq, idx, actor, refs, ctx := s.seq, s.i, x.actor, s.refs, x.ctx
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, opTimeout)
		defer cancel()
		n, err := script.ResolveTarget(c, actor, *q, script.Options{Refs: refs, FindTimeout: -1})
		msg := stepPreviewMsg{seq: seq, idx: idx, err: err}
		if n != nil {
			msg.id, msg.label, msg.secret = n.ID, dom.NodeLabel(n, 50), n.TakesSecret()
		}
		return msg
	})
}

// previewed keeps what the target resolved to.
func (s *stepper) previewed(x *stepCtx, msg stepPreviewMsg) action {
	if s == nil || msg.seq != s.seq || msg.idx != s.i {
		return nil
	}
	if msg.err != nil {
		s.miss = dom.ErrorOf(msg.err).Message
		return nil
	}
	s.target, s.targetID, s.secret = msg.label, msg.id, msg.secret
	// The node is selected in both panes, and so highlighted in the
	// browser, once per step. Not again after each manual action.
	if s.selected != s.i && x.doc.snap != nil && x.doc.snap.Node(msg.id) != nil {
		s.selected = s.i
		return reveal{msg.id}
	}
	return nil
}

// edit opens a prompt on the current step's line (value: a line being
// fixed). enter parses it and runs it.
func (s *stepper) edit(x *stepCtx, value string) action {
	idx := s.i
	ln := s.lines[idx]
	if value == "" {
		value = ln.Text
		if ln.Err == nil {
			value, _ = script.StepLine(script.Masked(ln.Step, s.secret))
		}
	}
	p := newPrompt(fmt.Sprintf("edit step %d", idx+1), "", value, `{"action":"click","target":{"role":"button","name":"…"}}`, x.w,
		stepSubmit(func(s *stepper, x *stepCtx, v string) action {
			st, err := script.ParseLine(v, ln.No)
			if err != nil {
				return actions{flash{dom.ErrorOf(err).Message, true}, s.edit(x, v)}
			}
			// The field still shows the mask where the line had a real
			// value it would not show. Keep that value.
			if ln.Err == nil && !script.Withheld(ln.Step) && script.Withheld(st) && st.Action == ln.Step.Action {
				switch st.Action {
				case "type":
					st.Text = ln.Step.Text
				case "key":
					st.Key = ln.Step.Key
				case "select":
					st.Value = ln.Step.Value
				}
			}
			text, _ := script.StepLine(st)
			s.lines[idx] = script.Line{No: ln.No, Text: text, Step: st}
			s.last = nil
			s.all = false
			return actions{run{s.preview(x)}, s.run(x)}
		}))
	return open{p}
}

// line is the current step as it may be shown or copied. A value aimed at
// a sensitive field is masked.
func (s *stepper) line() string {
	if s == nil || s.done() {
		return ""
	}
	ln := s.lines[s.i]
	if ln.Err != nil {
		return ln.Text
	}
	line, err := script.StepLine(script.Masked(ln.Step, s.secret))
	if err != nil {
		return ""
	}
	return line
}

// box draws the panel.
func (s *stepper) box(x *stepCtx, r rect) []string {
	w := max(r.w-2, 10)
	title := "Script " + views.Clean(s.name)
	right := fmt.Sprintf("step %d/%d", min(s.i+1, len(s.lines)), len(s.lines))
	if s.done() {
		right = fmt.Sprintf("done · %d/%d", len(s.lines), len(s.lines))
	}
	if manual := x.rec.Len() - s.recorded; manual > 0 {
		right += fmt.Sprintf(" · %d by hand", manual)
	}
	line := func(st themes.Ink, text string) string {
		return st.Render(views.Trunc(views.Clean(text), w))
	}
	var body []string
	if s.done() {
		body = append(body, line(x.st.OK, s.summary()),
			line(x.st.Dim, "w writes the session (steps run + what you did by hand) as a run script"))
	} else {
		ln := s.lines[s.i]
		body = append(body, x.st.Accent.Render("▶ ")+line(x.st.Bold, s.line()))
		switch {
		case ln.Err != nil:
			body = append(body, line(x.st.Error, "does not parse: "+dom.ErrorOf(ln.Err).Message))
		case script.Withheld(ln.Step):
			body = append(body, line(x.st.Warn, "a value withheld when recorded (sensitive field): a asks for it, masked"))
		default:
			body = append(body, "")
		}
		switch {
		case ln.Err != nil || ln.Step.TargetQuery() == nil:
		case s.target != "":
			body[1] = joinNonEmpty(body[1], line(x.st.OK, "target → "+s.target))
		case s.miss != "":
			body[1] = joinNonEmpty(body[1], line(x.st.Error, "target → nothing: "+s.miss))
		default:
			body[1] = joinNonEmpty(body[1], line(x.st.Dim, "target → …"))
		}
	}
	if r := s.last; r != nil && s.lastIdx == s.i && !r.Success {
		why := "failed"
		if r.Error != nil {
			why = string(r.Error.Code) + ": " + r.Error.Message
		}
		body = append(body, line(x.st.Error, fmt.Sprintf("✗ step %d failed: %s", s.lastIdx+1, why)))
	} else if r != nil && r.Success {
		body = append(body, line(x.st.Dim, fmt.Sprintf("✓ step %d ok · %.0f ms", s.lastIdx+1, r.DurationMs)))
	} else {
		body = append(body, "")
	}
	body = append(body, line(x.st.Dim, "a run · A run to the end · S skip · E edit and retry · act by hand with c t K s…, then a · y/Y copy"))
	return views.Box(x.st, title, right, body, r.w, r.h, false)
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "  " + b
}

// withStepPanel makes room for the script's panel between the panes and
// the details. A screen too small for both gets none.
func withStepPanel(s screen, w, h int) screen {
	if s.tooSmall {
		return s
	}
	t := computeScreen(w, h-stepPanelH)
	if t.tooSmall {
		return s
	}
	t.details.y += stepPanelH
	t.footer += stepPanelH
	t.step = rect{0, t.details.y - stepPanelH, w, stepPanelH}
	return t
}
