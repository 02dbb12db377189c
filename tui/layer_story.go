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

// The session's story (H): every recorded step with its result. Choosing
// one shows the flat view after it and its diff from the view before. In
// a saved capture (`domscope open`) it is the session the export carried.
// So a failure can be walked through with no browser.

// storyLayer lists the steps.
type storyLayer struct {
	list
	log []dom.SessionStep
}

func newStoryLayer(x *layerCtx, log []dom.SessionStep) *storyLayer {
	o := &storyLayer{list: list{title: fmt.Sprintf("The session, step by step (%d)", len(log)), foot: "enter shows the view after the step and its diff · esc close"}, log: log}
	for i, s := range log {
		o.add(storyItem(x, i, s), itoa(i))
	}
	o.first()
	o.fit(x.screen)
	return o
}

// storyItem is a step's line in the list: number, result, what it was.
func storyItem(x *layerCtx, i int, s dom.SessionStep) string {
	mark, st := "·", x.st.Dim
	if r := s.Result; r != nil {
		if r.Success {
			mark, st = "✓", x.st.OK
		} else {
			mark, st = "✗", x.st.Error
		}
	}
	desc := s.Desc
	if desc == "" {
		desc = compactJSON(s.Step)
	}
	text := fmt.Sprintf("%3d %s %s", i+1, st.Render(mark), views.Clean(desc))
	if r := s.Result; r != nil && !r.Success && r.Error != nil {
		text += "  " + x.st.Error.Render(views.Clean(string(r.Error.Code)))
	}
	switch {
	case s.Unchanged:
		text += x.st.Dim.Render("  · no change in the view")
	case len(s.Diff) > 0:
		add, del := 0, 0
		for _, d := range s.Diff {
			if strings.HasPrefix(d, "+") {
				add++
			} else {
				del++
			}
		}
		text += "  " + x.st.Added.Render(fmt.Sprintf("+%d", add)) + " " + x.st.Removed.Render(fmt.Sprintf("-%d", del))
	}
	return text
}

func (o *storyLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if c == keymap.Accept {
		i := o.cursor
		if i >= 0 && i < len(o.log) {
			return open{newStoryStepLayer(x, i, o.log[i])}, true
		}
		return nil, true
	}
	return o.common(x, o, c, msg)
}

func (o *storyLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }

// storyStepLayer shows one step: its line, result, diff and the view after.
type storyStepLayer struct{ list }

func newStoryStepLayer(x *layerCtx, i int, s dom.SessionStep) *storyStepLayer {
	o := &storyStepLayer{list{title: fmt.Sprintf("Step %d", i+1), foot: "↑↓ scroll · esc back to the steps", noCursor: true, cursor: -1}}
	w, _ := o.box(x.screen)
	inner := max(w-4, 20)
	wrap := func(st func(string) string, text string) {
		for _, l := range views.Wrap(views.Clean(text), inner) {
			o.add(st(l), "")
		}
	}
	wrap(x.st.Bold.Render, compactJSON(s.Step))
	if s.URL != "" {
		wrap(x.st.Dim.Render, "on "+s.URL)
	}
	if r := s.Result; r != nil {
		res := fmt.Sprintf("ok · %.0f ms", r.DurationMs)
		st := x.st.OK.Render
		if !r.Success {
			res, st = "failed", x.st.Error.Render
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
		o.add(x.st.Dim.Render("nothing"), "")
	case len(s.Diff) == 0:
		o.add(x.st.Dim.Render("not recorded (the step left no snapshot)"), "")
	}
	for _, d := range s.Diff {
		st := x.st.Added.Render
		if strings.HasPrefix(d, "-") {
			st = x.st.Removed.Render
		}
		o.add(st(views.Trunc(d[:min(2, len(d))]+cleanIndented(d[min(2, len(d)):]), inner)), "")
	}
	o.header("The flat view after it")
	if s.After == "" {
		o.add(x.st.Dim.Render("not kept (too big, or no snapshot after the step): the diff above is what changed"), "")
	}
	for _, l := range strings.Split(strings.TrimSuffix(s.After, "\n"), "\n") {
		if s.After != "" {
			o.add(views.Trunc(cleanIndented(l), inner), "")
		}
	}
	o.fit(x.screen)
	return o
}

func (o *storyStepLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	return o.common(x, o, c, msg)
}

func (o *storyStepLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }

// compactJSON is a recorded step on one line (an export is indented).
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
