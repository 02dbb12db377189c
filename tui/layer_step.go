package tui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/script"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

// Stepping through a script in the UI (`domscope run --ui FILE`): a panel
// above the details shows the current step, the node its target resolves
// to (selected in both panes, so the browser highlights it) or why nothing
// matches. a runs it, A runs on to the end or the next failure, S skips
// it, E edits its line and runs it again. Between steps the person can act
// by hand; the recorder keeps the steps run and the manual actions in the
// order they happened, so `w` (and --record) write the reproduction.

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
	// recorded counts the recorder's entries that are step attempts (the
	// rest of its log is what the person did by hand)
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

// stepMsg handles the step-through's replies (ok false: not one of them).
func (m *Model) stepMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case stepPreviewMsg:
		m.stepPreviewed(msg)
		return nil, true
	case stepDoneMsg:
		return m.stepDone(msg), true
	}
	return nil, false
}

// stepKey handles the step keys (ok false: not one of them).
func (m *Model) stepKey(a keymap.Command) (tea.Cmd, bool) {
	switch a {
	case keymap.Story:
		m.openStory()
		return nil, true
	case keymap.StepRun, keymap.StepAll, keymap.StepSkip, keymap.StepEdit:
	default:
		return nil, false
	}
	s := m.step
	if s == nil {
		m.setFlash("no script loaded: domscope run --ui FILE steps through one", true)
		return nil, true
	}
	if s.done() {
		m.setFlash(m.stepSummary()+" · w writes the session as a script", false)
		return nil, true
	}
	switch a {
	case keymap.StepRun:
		s.all = false
		return m.stepRun(), true
	case keymap.StepAll:
		s.all = true
		return m.stepRun(), true
	case keymap.StepSkip:
		s.all = false
		s.skipped++
		m.setFlash(fmt.Sprintf("skipped step %d", s.i+1), false)
		s.i++
		s.last = nil
		return m.stepPreview(), true
	case keymap.StepEdit:
		m.stepEdit("")
		return nil, true
	}
	return nil, false
}

// stepSummary says how far the script got.
func (m *Model) stepSummary() string {
	s := m.step
	return fmt.Sprintf("the script is done: %d of %d steps run, %d skipped", s.ran, len(s.lines), s.skipped)
}

// stepRun runs the current step: after asking for its value when it was
// withheld, in a masked prompt.
func (m *Model) stepRun() tea.Cmd {
	s := m.step
	ln := s.lines[s.i]
	if ln.Err != nil {
		s.all = false
		m.setFlash(fmt.Sprintf("step %d does not parse: %s · E edits it, S skips it", s.i+1, dom.ErrorOf(ln.Err).Message), true)
		return nil
	}
	if script.Withheld(ln.Step) {
		idx := s.i
		p := newPrompt(fmt.Sprintf("step %d: the value withheld when recorded", idx+1), "", "",
			"typed into the page only, never shown or written · esc cancels", m.w,
			func(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
				if v == "" {
					m.setFlash("no value given: the step did not run", true)
					return nil
				}
				return m.stepExec(idx, v)
			})
		p.conceal()
		p.cancelled = func(m *Model) { m.step.all = false }
		m.push(p)
		return nil
	}
	return m.stepExec(s.i, "")
}

// stepExec runs step idx (with secret in place of a withheld value),
// records it and takes the snapshot after it.
func (m *Model) stepExec(idx int, secret string) tea.Cmd {
	if !m.live() {
		m.setFlash("no browser: steps cannot run", true)
		return nil
	}
	s := m.step
	st := s.lines[idx].Step
	shown, _ := script.StepLine(script.Masked(st, s.secret))
	desc := fmt.Sprintf("step %d: %s", idx+1, shown)
	actor, rec, before := m.conn.actor, m.rec, m.doc.snap
	opts := script.Options{Refs: s.refs}
	m.doc.marks = nil
	m.clearCache()
	return m.startOp(views.Clean(fmt.Sprintf("step %d/%d: %s", idx+1, len(s.lines), st.Action)), func(ctx context.Context, gen int) tea.Msg {
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
	})
}

// stepDone shows the snapshot after a step and moves on: to the next step
// when it worked (and on running with A), else it stays, with its error.
func (m *Model) stepDone(msg stepDoneMsg) tea.Cmd {
	if m.step != nil && msg.res.Action != dom.KindSnapshot {
		m.step.recorded++ // kept by the recorder even when the reply is stale
	}
	if msg.snap.gen != m.doc.gen {
		return nil // cancelled (esc) or overtaken
	}
	cmd := m.gotSnapshot(msg.snap)
	s := m.step
	if s == nil || msg.idx != s.i {
		return cmd
	}
	res := msg.res
	s.last, s.lastIdx = &res, msg.idx
	if !res.Success {
		s.all = false
		why := "failed"
		if res.Error != nil {
			why = string(res.Error.Code) + ": " + res.Error.Message
		}
		m.setFlash(fmt.Sprintf("step %d failed: %s · act by hand, then a retries, S skips, E edits", s.i+1, why), true)
		return tea.Batch(cmd, m.stepPreview())
	}
	s.ran++
	s.i++
	if s.done() {
		s.all = false
		m.setFlash(m.stepSummary()+" · w writes the session as a script", false)
		return cmd
	}
	if s.all {
		return tea.Batch(cmd, m.stepRun())
	}
	m.setFlash(fmt.Sprintf("step %d ok · step %d is next (a runs it)", s.i, s.i+1), false)
	return tea.Batch(cmd, m.stepPreview())
}

// stepPreview resolves the current step's target on the page as it is now,
// in a command.
func (m *Model) stepPreview() tea.Cmd {
	s := m.step
	if s == nil || s.done() || !m.live() {
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
	seq, idx, actor, refs, ctx := s.seq, s.i, m.conn.actor, s.refs, m.ctx
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

func (m *Model) stepPreviewed(msg stepPreviewMsg) {
	s := m.step
	if s == nil || msg.seq != s.seq || msg.idx != s.i {
		return
	}
	if msg.err != nil {
		s.miss = dom.ErrorOf(msg.err).Message
		return
	}
	s.target, s.targetID, s.secret = msg.label, msg.id, msg.secret
	// the node is selected in both panes (and so highlighted in the
	// browser) once per step, not again after each manual action
	if s.selected != s.i && m.doc.snap != nil && m.doc.snap.Node(msg.id) != nil {
		s.selected = s.i
		m.panes.tree.Reveal(msg.id)
		m.syncFromTree()
	}
}

// afterShown runs after a snapshot is on screen: an action's keeps the
// view before and after it with the recorded step (prev is the flat view
// before), and the current step's target is resolved again on the new page.
func (m *Model) afterShown(msg snapshotMsg, prev *flatten.View) tea.Cmd {
	var cmds []tea.Cmd
	if msg.res != nil && m.doc.view != nil {
		rec, after := m.rec, m.doc.view.Text
		cmds = append(cmds, safe(func() tea.Msg {
			before := ""
			if prev != nil {
				before = prev.Text
			}
			rec.KeepView(before, after)
			return nil
		}))
	}
	if m.step != nil && m.op.busy == nil {
		cmds = append(cmds, m.stepPreview())
	}
	return tea.Batch(cmds...)
}

// stepEdit opens a prompt on the current step's line (value: a line being
// fixed); enter parses it and runs it.
func (m *Model) stepEdit(value string) {
	s := m.step
	idx := s.i
	ln := s.lines[idx]
	if value == "" {
		value = ln.Text
		if ln.Err == nil {
			value, _ = script.StepLine(script.Masked(ln.Step, s.secret))
		}
	}
	p := newPrompt(fmt.Sprintf("edit step %d", idx+1), "", value, `{"action":"click","target":{"role":"button","name":"…"}}`, m.w,
		func(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
			st, err := script.ParseLine(v, ln.No)
			if err != nil {
				m.setFlash(dom.ErrorOf(err).Message, true)
				m.stepEdit(v)
				return nil
			}
			// the field still shows the mask where the line had a real
			// value it would not show: keep that value
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
			m.step.lines[idx] = script.Line{No: ln.No, Text: text, Step: st}
			m.step.last = nil
			m.step.all = false
			return tea.Batch(m.stepPreview(), m.stepRun())
		})
	m.push(p)
}

// stepLine is the current step as it may be shown or copied: a value aimed
// at a sensitive field masked.
func (m *Model) stepLine() string {
	s := m.step
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

// stepBox draws the panel.
func (m *Model) stepBox(r rect) []string {
	s := m.step
	w := max(r.w-2, 10)
	title := "Script " + views.Clean(s.name)
	right := fmt.Sprintf("step %d/%d", min(s.i+1, len(s.lines)), len(s.lines))
	if s.done() {
		right = fmt.Sprintf("done · %d/%d", len(s.lines), len(s.lines))
	}
	if manual := m.rec.Len() - s.recorded; manual > 0 {
		right += fmt.Sprintf(" · %d by hand", manual)
	}
	line := func(st themes.Ink, text string) string {
		return st.Render(views.Trunc(views.Clean(text), w))
	}
	var body []string
	if s.done() {
		body = append(body, line(m.st.OK, m.stepSummary()),
			line(m.st.Dim, "w writes the session (steps run + what you did by hand) as a run script"))
	} else {
		ln := s.lines[s.i]
		body = append(body, m.st.Accent.Render("▶ ")+line(m.st.Bold, m.stepLine()))
		switch {
		case ln.Err != nil:
			body = append(body, line(m.st.Error, "does not parse: "+dom.ErrorOf(ln.Err).Message))
		case script.Withheld(ln.Step):
			body = append(body, line(m.st.Warn, "a value withheld when recorded (sensitive field): a asks for it, masked"))
		default:
			body = append(body, "")
		}
		switch {
		case ln.Err != nil || ln.Step.TargetQuery() == nil:
		case s.target != "":
			body[1] = joinNonEmpty(body[1], line(m.st.OK, "target → "+s.target))
		case s.miss != "":
			body[1] = joinNonEmpty(body[1], line(m.st.Error, "target → nothing: "+s.miss))
		default:
			body[1] = joinNonEmpty(body[1], line(m.st.Dim, "target → …"))
		}
	}
	if r := s.last; r != nil && s.lastIdx == s.i && !r.Success {
		why := "failed"
		if r.Error != nil {
			why = string(r.Error.Code) + ": " + r.Error.Message
		}
		body = append(body, line(m.st.Error, fmt.Sprintf("✗ step %d failed: %s", s.lastIdx+1, why)))
	} else if r != nil && r.Success {
		body = append(body, line(m.st.Dim, fmt.Sprintf("✓ step %d ok · %.0f ms", s.lastIdx+1, r.DurationMs)))
	} else {
		body = append(body, "")
	}
	body = append(body, line(m.st.Dim, "a run · A run to the end · S skip · E edit and retry · act by hand with c t K s…, then a · y/Y copy"))
	return views.Box(m.st, title, right, body, r.w, r.h, false)
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "  " + b
}

// withStepPanel makes room for the script's panel between the panes and
// the details (not on a screen too small for both).
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
