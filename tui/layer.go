package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// layer is anything drawn over the panes that takes the keyboard while
// it is on top. It may be the help, rules, diff and tab lists, a
// JavaScript dialog or a text prompt. The model keeps them on a stack. It
// never asks which kind one is.
type layer interface {
	// mode is how keys are read while the layer is on top.
	mode() keymap.Mode
	// handle gets the command of a key press and the message itself. The
	// command is keymap.None for other messages, and for keys the table
	// does not map. It may change only the layer. What else it wants done
	// it returns, and the model applies. handled false passes a message
	// on; keys never pass a layer.
	handle(x *layerCtx, c keymap.Command, msg tea.Msg) (a action, handled bool)
	// render draws the layer for the current screen. It returns lines of
	// equal width and where the first goes.
	render(x *layerCtx, s screen) drawn
	// hints are the keys the footer (or the layer itself) shows.
	hints(km keymap.KeyMap) []key.Binding
}

// layerCtx is the model as the layers see it now.
func (m *Model) layerCtx() *layerCtx {
	return &layerCtx{
		st:     m.st,
		km:     m.km,
		w:      m.w,
		screen: m.screen(),
		doc:    m.doc,
		tokens: m.panes.flat.tokens,
	}
}

// drawn is a rendered layer and its place on screen.
type drawn struct {
	lines []string
	x, y  int
}

// rank orders layers that arrive on their own. A page dialog goes above
// any list, and a prompt being typed in stays on top of both.
func rank(l layer) int {
	switch l.mode() {
	case keymap.Prompt:
		return 2
	case keymap.Dialog:
		return 1
	}
	return 0
}

// push puts a layer on the stack, above every layer of its rank or lower.
func (m *Model) push(l layer) {
	i := len(m.layers)
	for i > 0 && rank(m.layers[i-1]) > rank(l) {
		i--
	}
	m.layers = append(m.layers, nil)
	copy(m.layers[i+1:], m.layers[i:])
	m.layers[i] = l
	m.resize(l)
}

// resize fits a new layer to the screen.
func (m *Model) resize(l layer) {
	a, _ := l.handle(m.layerCtx(), keymap.None, tea.WindowSizeMsg{Width: m.w, Height: m.h})
	m.apply(l, a)
}

// pop removes a layer wherever it is on the stack.
func (m *Model) pop(l layer) {
	for i := len(m.layers) - 1; i >= 0; i-- {
		if m.layers[i] == l {
			m.layers = append(m.layers[:i], m.layers[i+1:]...)
			return
		}
	}
}

// replace swaps a layer for a new one in the same place (a list rebuilt
// with fresh data). When old is gone it pushes the new one.
func (m *Model) replace(old, l layer) {
	for i, o := range m.layers {
		if o == old {
			m.layers[i] = l
			m.resize(l)
			return
		}
	}
	m.push(l)
}

// top is the layer with the keyboard, or nil.
func (m *Model) top() layer {
	if len(m.layers) == 0 {
		return nil
	}
	return m.layers[len(m.layers)-1]
}

// find is the highest layer that is a T.
func find[T layer](m *Model) (T, bool) {
	for i := len(m.layers) - 1; i >= 0; i-- {
		if t, ok := m.layers[i].(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// covered reports whether a list covers the panes (their borders dim).
func (m *Model) covered() bool {
	for _, l := range m.layers {
		if l.mode() == keymap.List {
			return true
		}
	}
	return false
}

// broadcast gives a message to every layer, bottom first (a resize, a new
// snapshot). It batches what they return.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range append([]layer(nil), m.layers...) {
		a, _ := l.handle(m.layerCtx(), keymap.None, msg)
		cmds = append(cmds, m.apply(l, a))
	}
	return tea.Batch(cmds...)
}

// centred places a box in the middle of the panes' area.
func centred(s screen, box []string) drawn { return centredIn(s.body, box) }

// centredIn places a box in the middle of r.
func centredIn(r rect, box []string) drawn {
	if len(box) == 0 {
		return drawn{}
	}
	bw := views.Width(box[0])
	return drawn{lines: box, x: r.x + max((r.w-bw)/2, 0), y: r.y + max((r.h-len(box))/2, 0)}
}
