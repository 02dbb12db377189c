package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/views"
)

// The session's story (H): every recorded step with its result; choosing
// one shows the flat view after it and its diff from the view before. In
// a saved capture (`domscope open`) it is the session the export carried,
// so a failure can be walked through with no browser.

// storyLayer lists the steps.
type storyLayer struct {
	list
	log []dom.SessionStep
}

// sessionLog is the story to tell: the saved capture's, else this
// session's.
func (m *Model) sessionLog() []dom.SessionStep {
	if m.conn.saved != nil {
		return m.conn.saved.SessionLog()
	}
	return m.rec.Log()
}

func (m *Model) openStory() {
	log := m.sessionLog()
	if len(log) == 0 {
		what := "this session has no recorded steps yet: act on the page (c, t, K…)"
		if m.conn.saved != nil {
			what = "this capture carries no session steps (it was exported before any action)"
		}
		m.setFlash(what, true)
		return
	}
	o := &storyLayer{list: list{title: fmt.Sprintf("The session, step by step (%d)", len(log)), foot: "enter shows the view after the step and its diff · esc close"}, log: log}
	for i, s := range log {
		o.add(storyItem(m, i, s), itoa(i))
	}
	o.first()
	o.fit(m.screen())
	m.push(o)
}

// storyItem is a step's line in the list: number, result, what it was.
func storyItem(m *Model, i int, s dom.SessionStep) string {
	mark, st := "·", m.st.Dim
	if r := s.Result; r != nil {
		if r.Success {
			mark, st = "✓", m.st.OK
		} else {
			mark, st = "✗", m.st.Error
		}
	}
	desc := s.Desc
	if desc == "" {
		desc = compactJSON(s.Step)
	}
	text := fmt.Sprintf("%3d %s %s", i+1, st.Render(mark), views.Clean(desc))
	if r := s.Result; r != nil && !r.Success && r.Error != nil {
		text += "  " + m.st.Error.Render(views.Clean(string(r.Error.Code)))
	}
	switch {
	case s.Unchanged:
		text += m.st.Dim.Render("  · no change in the view")
	case len(s.Diff) > 0:
		add, del := 0, 0
		for _, d := range s.Diff {
			if strings.HasPrefix(d, "+") {
				add++
			} else {
				del++
			}
		}
		text += "  " + m.st.Added.Render(fmt.Sprintf("+%d", add)) + " " + m.st.Removed.Render(fmt.Sprintf("-%d", del))
	}
	return text
}

func (o *storyLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if c == keymap.Accept {
		i := o.cursor
		if i >= 0 && i < len(o.log) {
			m.push(newStoryStepLayer(m, i, o.log[i]))
		}
		return nil, true
	}
	return o.common(m, o, c, msg)
}

func (o *storyLayer) render(m *Model, s screen) drawn { return o.draw(m, s) }

// storyStepLayer shows one step: its line, result, diff and the view after.
type storyStepLayer struct{ list }

func newStoryStepLayer(m *Model, i int, s dom.SessionStep) *storyStepLayer {
	o := &storyStepLayer{list{title: fmt.Sprintf("Step %d", i+1), foot: "↑↓ scroll · esc back to the steps", noCursor: true, cursor: -1}}
	w, _ := o.box(m.screen())
	inner := max(w-4, 20)
	wrap := func(st func(string) string, text string) {
		for _, l := range views.Wrap(views.Clean(text), inner) {
			o.add(st(l), "")
		}
	}
	wrap(m.st.Bold.Render, compactJSON(s.Step))
	if s.URL != "" {
		wrap(m.st.Dim.Render, "on "+s.URL)
	}
	if r := s.Result; r != nil {
		res := fmt.Sprintf("ok · %.0f ms", r.DurationMs)
		st := m.st.OK.Render
		if !r.Success {
			res, st = "failed", m.st.Error.Render
			if r.Error != nil {
				res += ": " + string(r.Error.Code) + ": " + r.Error.Message
			}
		}
		if r.Changes.Navigated {
			res += " · navigated to " + r.Changes.NewURL
		}
		wrap(st, res)
	}
	o.header("What changed in the flat view")
	switch {
	case s.Unchanged:
		o.add(m.st.Dim.Render("nothing"), "")
	case len(s.Diff) == 0:
		o.add(m.st.Dim.Render("not recorded (the step left no snapshot)"), "")
	}
	for _, d := range s.Diff {
		st := m.st.Added.Render
		if strings.HasPrefix(d, "-") {
			st = m.st.Removed.Render
		}
		o.add(st(views.Trunc(d[:min(2, len(d))]+cleanIndented(d[min(2, len(d)):]), inner)), "")
	}
	o.header("The flat view after it")
	if s.After == "" {
		o.add(m.st.Dim.Render("not kept (too big, or no snapshot after the step): the diff above is what changed"), "")
	}
	for _, l := range strings.Split(strings.TrimSuffix(s.After, "\n"), "\n") {
		if s.After != "" {
			o.add(views.Trunc(cleanIndented(l), inner), "")
		}
	}
	o.fit(m.screen())
	return o
}

func (o *storyStepLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	return o.common(m, o, c, msg)
}

func (o *storyStepLayer) render(m *Model, s screen) drawn { return o.draw(m, s) }

// compactJSON is a recorded step on one line (an export is indented).
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
