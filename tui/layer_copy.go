package tui

import (
	"bytes"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"domscope/dom/flatten"
	"domscope/dom/script"
	"domscope/keymap"
)

// The things Y offers to copy.
const (
	copyFlat   = "flat"
	copyTarget = "target"
	copyCSS    = "css"
	copyLine   = "line"
	copyStep   = "step"
)

// copyLayer is Y's chooser.
type copyLayer struct{ list }

func newCopyLayer(m *Model) *copyLayer {
	o := &copyLayer{list: list{title: "Copy to the clipboard", foot: "enter copies · esc close"}}
	format := "text"
	if m.panes.flat.json {
		format = "json"
	}
	o.add("the flat view, as shown ("+format+")", copyFlat)
	o.add("the selected node's query, as a run target (JSON)", copyTarget)
	o.add("a CSS selector for the selected node", copyCSS)
	o.add("the selected node's line", copyLine)
	if m.stepLine() != "" {
		o.add("the script's current step, as a JSON line", copyStep)
	}
	o.first()
	return o
}

func (o *copyLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if c == keymap.Accept {
		what := o.key()
		m.pop(o)
		return m.copyWhat(what), true
	}
	return o.common(m, o, c, msg)
}

func (o *copyLayer) render(m *Model, s screen) drawn { return o.draw(m, s) }

// copyWhat copies one of the chooser's items.
func (m *Model) copyWhat(what string) tea.Cmd {
	if what == copyLine {
		return m.copyLine()
	}
	if what == copyStep {
		// masked where it aims a value at a sensitive field, as shown
		return m.copyText("the step", m.stepLine())
	}
	if what == copyFlat {
		if m.doc.sd == nil {
			m.setFlash("nothing to copy yet", true)
			return nil
		}
		if m.panes.flat.json {
			b, err := flatten.FormatJSON(m.doc.sd)
			if err != nil {
				m.setFlash("could not format the flat view: "+err.Error(), true)
				return nil
			}
			return m.copyText("the flat view (json)", string(b))
		}
		return m.copyText("the flat view (text)", flatten.FormatText(m.doc.sd))
	}
	n := m.panes.tree.Selected()
	if n == nil || m.doc.snap == nil {
		m.setFlash("select a node first", true)
		return nil
	}
	if what == copyCSS {
		css := script.CSSPath(m.doc.snap, n)
		if css == "" {
			m.setFlash(m.nodeName(n.ID)+" has no CSS path from the top document (inside a shadow root or frame)", true)
			return nil
		}
		return m.copyText("the CSS selector", css)
	}
	q, err := script.TargetFor(m.doc.snap, n)
	if err != nil {
		m.setFlash("no run target for "+m.nodeName(n.ID)+": "+err.Error(), true)
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // a name's "&" stays as it is
	if err := enc.Encode(q); err != nil {
		m.setFlash("could not write the target: "+err.Error(), true)
		return nil
	}
	return m.copyText("the run target", string(flatten.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))))
}
