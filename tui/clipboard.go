package tui

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/script"
	"domscope/views"
)

// copyText sends s to the terminal's clipboard (OSC 52) and says what was
// sent. Everything copied comes from the snapshot, whose sensitive values
// the engine has already replaced. Many terminals drop OSC 52 without a
// word. So the message says it was sent, not copied, and what it needs.
func (m *Model) copyText(what, s string) tea.Cmd {
	if s == "" {
		m.setFlash("nothing to copy: "+what+" is empty", true)
		return nil
	}
	lines := strings.Count(s, "\n") + 1
	shown := views.Trunc(views.Clean(strings.SplitN(s, "\n", 2)[0]), 60)
	if lines > 1 {
		m.setFlash("sent "+what+" ("+strconv.Itoa(lines)+" lines, "+strconv.Itoa(len(s))+" bytes) to the clipboard by OSC 52 · "+osc52Needs(), false)
	} else {
		m.setFlash("sent "+what+" to the clipboard by OSC 52: "+shown+" · "+osc52Needs(), false)
	}
	return tea.SetClipboard(s)
}

// osc52Needs says what the terminal must do for a copy to arrive. tmux
// passes OSC 52 on only with set-clipboard on. Other terminals must allow
// it (xterm: allowWindowOps; some never do).
func osc52Needs() string {
	if os.Getenv("TMUX") != "" {
		return "tmux needs set -g set-clipboard on"
	}
	return "the terminal must allow OSC 52"
}

// copyLine copies the selected node's line. When the flat pane has the
// keyboard, that is its line under the cursor. Else it is the first flat
// line of the tree's selection. A node flattened away gives its tree
// label.
func (m *Model) copyLine() tea.Cmd {
	fp := &m.panes.flat
	if m.panes.focus == flatFocus && fp.cursor >= 0 && fp.cursor < len(fp.lines) {
		return m.copyText("the line", strings.TrimLeft(fp.lines[fp.cursor], " "))
	}
	n := m.panes.tree.Selected()
	if n == nil {
		m.setFlash("select a node to copy its line", true)
		return nil
	}
	if i := fp.Line(n.ID); i >= 0 {
		return m.copyText("the line", strings.TrimLeft(fp.lines[i], " "))
	}
	return m.copyText("the node", dom.NodeLabel(n, 200))
}

// copyWhat copies one of the chooser's items.
func (m *Model) copyWhat(what string) tea.Cmd {
	if what == copyLine {
		return m.copyLine()
	}
	if what == copyStep {
		// masked where it aims a value at a sensitive field, as shown
		return m.copyText("the step", m.step.line())
	}
	if what == copyFlat {
		if m.doc.view == nil {
			m.setFlash("nothing to copy yet", true)
			return nil
		}
		if m.panes.flat.json {
			// At 50,000 elements flattening again and formatting take
			// most of a second: a command does it, Update copies it.
			v := m.doc.view
			return safe(func() tea.Msg {
				b, err := flatten.FormatJSON(v.Serialized())
				return copyReadyMsg{what: "the flat view (json)", text: string(b), err: err}
			})
		}
		return m.copyText("the flat view (text)", m.doc.view.Text)
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
