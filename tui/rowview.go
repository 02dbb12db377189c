package tui

// rowView is the cursor and scroll position of a pane over n rows. The
// tree and flat panes share it, so both move and scroll the same way.
type rowView struct {
	cursor int
	offset int
	height int
}

// clamp keeps the cursor on a row and the cursor's row on screen.
func (v *rowView) clamp(n int) {
	v.cursor = max(min(v.cursor, n-1), 0)
	v.follow(n)
}

// follow scrolls just enough to show the cursor, never past the last row.
func (v *rowView) follow(n int) {
	h := max(v.height, 1)
	if v.cursor < v.offset {
		v.offset = v.cursor
	}
	if v.cursor >= v.offset+h {
		v.offset = v.cursor - h + 1
	}
	v.offset = max(min(v.offset, n-h), 0)
}

// move moves the cursor by delta rows.
func (v *rowView) move(delta, n int) { v.cursor += delta; v.clamp(n) }

// page moves the cursor a screen (less one row of context) down or up.
func (v *rowView) page(dir, n int) { v.move(dir*max(v.height-1, 1), n) }

// to puts the cursor on row i.
func (v *rowView) to(i, n int) { v.cursor = i; v.clamp(n) }

// scroll moves the view by delta rows (mouse wheel). It drags the cursor
// along when it would leave the screen.
func (v *rowView) scroll(delta, n int) {
	h := max(v.height, 1)
	v.offset = min(max(v.offset+delta, 0), max(n-h, 0))
	if v.cursor < v.offset {
		v.cursor = v.offset
	}
	if v.cursor >= v.offset+h {
		v.cursor = v.offset + h - 1
	}
	v.clamp(n)
}

// rowAt is the row y lines below the first on screen, if there is one.
func (v *rowView) rowAt(y, n int) (int, bool) {
	if y < 0 || y >= max(v.height, 1) || v.offset+y >= n {
		return 0, false
	}
	return v.offset + y, true
}

// setHeight sets the number of rows on screen.
func (v *rowView) setHeight(h, n int) {
	v.height = max(h, 1)
	v.follow(n)
}
