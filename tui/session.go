package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/views"
)

// The session: what the UI recorded and what it copies to the terminal's
// clipboard. The record is written as a `run` script with `w` and
// carried by exports.

// scriptWrittenMsg: the session's script is on disk, or could not be.
type scriptWrittenMsg struct {
	path  string
	steps int
	start string // the page the session started on
	err   error
}

// recordError says when an action could not be kept as a script step the
// way a replay needs it. A write to --record failed, or no query picks
// the node. The action itself went through.
func (m *Model) recordError(err error) {
	if err != nil {
		m.setFlash("recording: "+err.Error(), true)
	}
}

// outPath puts a file name in the output directory (--output-dir; the
// command line gives its default).
func (m *Model) outPath(name string) string {
	if m.cfg.OutputDir == "" {
		return name
	}
	return filepath.Join(m.cfg.OutputDir, name)
}

// writeScript writes the session so far as a `domscope run` script into
// the output directory. It runs in a command.
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
	replay := m.cfg.Replay
	return safe(func() tea.Msg {
		var b bytes.Buffer
		if err := rec.WriteScript(&b); err != nil {
			return scriptWrittenMsg{path: path, err: err}
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		if replay != nil && start != "" {
			// The header names the page recorded on, with the port a
			// demo had then. This line is the command that replays it.
			withReplay(&b, "# replay with: "+replay(start, path))
		}
		// the output directory may not exist yet
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return scriptWrittenMsg{path: path, err: err}
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
	head := strings.Join([]string{"wrote", strconv.Itoa(msg.steps), steps, "to"}, " ")
	m.setFlash(views.Clean(head+" "+msg.path+" · replay it with: "+replay), false)
	m.push(newWrittenLayer(m.layerCtx(), "Script written", head, msg.path, "replay it with:", "the replay command", replay))
}

// withReplay puts a comment line after the script's header line.
func withReplay(b *bytes.Buffer, line string) {
	s := b.String()
	i := strings.IndexByte(s, '\n') + 1
	if !strings.HasPrefix(s, "#") {
		i = 0
	}
	b.Reset()
	line = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, line)
	b.WriteString(s[:i] + line + "\n" + s[i:])
}
