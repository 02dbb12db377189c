package tui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/script"
	"domscope/keymap"
	"domscope/views"
)

// The session: what the UI recorded (written as a `run` script with `w`,
// carried by exports) and what it copies to the terminal's clipboard.

// scriptWrittenMsg: the session's script is on disk, or could not be.
type scriptWrittenMsg struct {
	path  string
	steps int
	start string // the page the session started on
	err   error
}

// recordError says when an action could not be kept as a script step the
// way a replay needs it (a write to --record failed, or no query picks the
// node): the action itself went through.
func (m *Model) recordError(err error) {
	if err != nil {
		m.setFlash("recording: "+err.Error(), true)
	}
}

// outPath puts a file name in the output directory (--output-dir).
func (m *Model) outPath(name string) string {
	if m.cfg.OutputDir == "" {
		return name
	}
	return filepath.Join(m.cfg.OutputDir, name)
}

// writeScript writes the session so far as a `domscope run` script into
// the output directory, in a command.
func (m *Model) writeScript() tea.Cmd {
	n := m.rec.Len()
	if n == 0 {
		m.setFlash("nothing recorded yet: act on the page (c, t, K, s…) and each action becomes a script step", true)
		return nil
	}
	name := strings.TrimSuffix(m.exportName(), ".json.gz") + ".script"
	path, rec := m.outPath(name), m.rec
	start := ""
	if log := rec.Log(); len(log) > 0 {
		start = log[0].URL
	}
	return safe(func() tea.Msg {
		var b bytes.Buffer
		if err := rec.WriteScript(&b); err != nil {
			return scriptWrittenMsg{path: path, err: err}
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return scriptWrittenMsg{path: path, steps: n, start: start, err: dom.WritePrivate(path, b.Bytes())}
	})
}

func (m *Model) scriptWritten(msg scriptWrittenMsg) {
	if msg.err != nil {
		m.setFlash("could not write the script: "+msg.err.Error(), true)
		return
	}
	steps := "steps"
	if msg.steps == 1 {
		steps = "step"
	}
	replay := "domscope run --url URL " + msg.path
	if m.cfg.Replay != nil && msg.start != "" {
		replay = m.cfg.Replay(msg.start, msg.path)
	}
	m.setFlash(views.Clean(strings.Join([]string{"wrote", strconv.Itoa(msg.steps), steps, "to", msg.path, "· replay it with:", replay}, " ")), false)
}

// copyText sends s to the terminal's clipboard (OSC 52) and says what was
// sent. Everything copied comes from the snapshot, whose sensitive values
// the engine has already replaced. Many terminals drop OSC 52 without a
// word, so the message says it was sent, not copied, and what it needs.
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

// osc52Needs says what the terminal must do for a copy to arrive: tmux
// passes OSC 52 on only with set-clipboard on; other terminals must allow
// it (xterm: allowWindowOps; some never do).
func osc52Needs() string {
	if os.Getenv("TMUX") != "" {
		return "tmux needs set -g set-clipboard on"
	}
	return "the terminal must allow OSC 52"
}

// copyLine copies the selected node's line: the flat pane's line under the
// cursor when the flat pane has the keyboard, else the first flat line of
// the tree's selection, else its tree label (a node flattened away).
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
