package views

import (
	"strconv"

	"domscope/themes"
)

// ListItem is one line of an overlay list. Header items are section
// titles the cursor skips.
type ListItem struct {
	Text   string // already styled and cleaned
	Header bool
	// More: the row goes on from the item above (a wrapped description).
	// The cursor skips it, and shows on it with its item.
	More bool
}

// List renders an overlay: a titled box of w×h with the items from
// offset. The cursor row is highlighted, and a footer line ends it.
func List(st themes.Styles, title string, items []ListItem, cursor, offset, w, h int, foot string) []string {
	inner := w - 2
	rows := h - 2
	if foot != "" {
		rows--
	}
	body := make([]string, 0, rows+1)
	owner := -1 // the item a More row belongs to
	for i := offset; i < len(items) && len(body) < rows; i++ {
		it := items[i]
		if !it.More {
			owner = i
		}
		switch {
		case it.Header:
			body = append(body, st.Title.Render(Trunc(it.Text, inner)))
		case it.More && owner == cursor:
			body = append(body, st.Selected.Render(Pad("  "+stripStyle(it.Text), inner)))
		case i == cursor:
			body = append(body, st.Selected.Render(Pad("▶ "+stripStyle(it.Text), inner)))
		default:
			body = append(body, "  "+it.Text)
		}
	}
	for len(body) < rows {
		body = append(body, "")
	}
	if foot != "" {
		body = append(body, st.Dim.Render(Trunc(foot, inner)))
	}
	more := ""
	if len(items) > rows {
		more = strconv.Itoa(offset+1) + "–" + strconv.Itoa(min(offset+rows, len(items))) + " of " + strconv.Itoa(len(items))
	}
	return Box(st, title, more, body, w, h, true)
}
