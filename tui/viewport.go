package tui

// viewport is the cursor and scroll position of a pane over n rows; the
// tree and flat panes share it so both scroll the same way.
type viewport struct {
	cursor int
	offset int
	height int
}

// clamp keeps the cursor on a row and the cursor's row on screen.
func (v *viewport) clamp(n int) {
	v.cursor = max(min(v.cursor, n-1), 0)
	v.follow(n)
}

// follow scrolls just enough to show the cursor, never past the last row.
func (v *viewport) follow(n int) {
	h := max(v.height, 1)
	if v.cursor < v.offset {
		v.offset = v.cursor
	}
	if v.cursor >= v.offset+h {
		v.offset = v.cursor - h + 1
	}
	v.offset = max(min(v.offset, n-h), 0)
}

// scroll moves the view by delta rows (mouse wheel), dragging the cursor
// along when it would leave the screen.
func (v *viewport) scroll(delta, n int) {
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

// setHeight sets the number of rows on screen.
func (v *viewport) setHeight(h, n int) {
	v.height = max(h, 1)
	v.follow(n)
}
