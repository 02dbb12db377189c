package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"domscope/dom/mcp"
	"domscope/keymap"
	"domscope/views"
)

// callsLayer is the agent's call log (M), newest last. Each call shows
// its tool, arguments (secrets masked by the server), outcome,
// milliseconds and tokens returned.
type callsLayer struct{ list }

// newCallsLayer lists calls; serving: there is an agent (--mcp).
func newCallsLayer(x *layerCtx, serving bool, calls []mcp.Call) *callsLayer {
	o := &callsLayer{list{title: "Agent calls (newest last)", foot: "↑↓ scroll · esc close", noCursor: true, cursor: -1}}
	switch {
	case !serving:
		o.header("No agent: start domscope with --mcp ADDR to serve the DOM tool, or --session NAME to watch a shell agent.")
	case len(calls) == 0:
		o.header("No calls yet.")
	}
	w, _ := o.box(x.screen)
	inner := max(w-4-9, 20) // the box's border and padding, then "15:04:05 "
	for _, c := range calls {
		st := x.st.Accent
		if c.IsError {
			st = x.st.Error
		}
		head := fmt.Sprintf("#%d %s · %d tokens", c.Seq, callLine(c), c.Tokens)
		lines := views.Wrap(views.Clean(head), inner)
		lines = append(lines, views.Wrap("args "+views.Clean(c.Args), inner)...)
		if c.IsError {
			lines = append(lines, views.Wrap(views.Clean(firstLine(c.Text)), inner)...)
		}
		for i, line := range lines {
			stamp := "         "
			s := x.st.Dim
			if i == 0 {
				stamp = x.st.Dim.Render(c.Started.Format("15:04:05")) + " "
				s = st
			}
			o.add(stamp+s.Render(line), "")
		}
	}
	o.fit(x.screen)
	o.move(len(o.items)) // the newest at the bottom, in view
	return o
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

func (o *callsLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	return o.common(x, o, c, msg)
}

func (o *callsLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }
