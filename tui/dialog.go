package tui

import "domscope/dom"

// showDialog puts a dialog the page opened on screen. There is one at a
// time: a newer one replaces it.
func (m *Model) showDialog(info *dom.DialogInfo) {
	m.closeDialog()
	m.push(newDialogLayer(info, m.screen().body.w))
}

// closeDialog takes the dialog off the screen.
func (m *Model) closeDialog() {
	if d, ok := find[*dialogLayer](m); ok {
		m.pop(d)
	}
}
