package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// list is the part the list layers (help, rules, diff, tabs) share. It is
// a titled box of items, some of them section headers, with a cursor.
type list struct {
	title    string
	foot     string
	items    []views.ListItem
	keys     []string // per item: what choosing it means to its layer
	cursor   int
	offset   int
	height   int  // item rows on screen
	width    int  // the box's width; 0: the usual width
	noCursor bool // help: scrolls, has no cursor
	// area is where the list goes; nil: over the panes' whole area
	area func(s screen) rect
}

func (o *list) mode() keymap.Mode                    { return keymap.List }
func (o *list) hints(km keymap.KeyMap) []key.Binding { return km.Hints(keymap.List) }

func (o *list) add(text, key string) {
	o.items = append(o.items, views.ListItem{Text: text})
	o.keys = append(o.keys, key)
}

// more adds a row that goes on from the item above.
func (o *list) more(text string) {
	o.items = append(o.items, views.ListItem{Text: text, More: true})
	o.keys = append(o.keys, "")
}

func (o *list) header(text string) {
	o.items = append(o.items, views.ListItem{Text: text, Header: true})
	o.keys = append(o.keys, "")
}

// common handles what every list does alike. That is move, close, open
// the help over it, the mouse wheel and a new screen size. self is the
// layer the list belongs to; help does not open over itself.
func (o *list) common(x *layerCtx, self layer, c keymap.Command, msg tea.Msg) (action, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		o.fit(x.screen)
		return nil, true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			o.move(-3)
		case tea.MouseWheelDown:
			o.move(3)
		}
		return nil, true
	}
	switch c {
	case keymap.Cancel:
		return closeLayer{}, true
	case keymap.Up:
		o.move(-1)
	case keymap.Down:
		o.move(1)
	case keymap.PageUp:
		o.move(-o.height)
	case keymap.PageDown:
		o.move(o.height)
	case keymap.Top:
		o.first()
	case keymap.Bottom:
		o.move(len(o.items))
	case keymap.Help:
		if _, shown := self.(*helpLayer); !shown {
			return open{newHelpLayer(x)}, true
		}
	case keymap.None:
		_, isKey := msg.(tea.KeyPressMsg)
		return nil, isKey // a list takes every key, and only keys
	}
	return nil, true
}

// in is the list's area on a screen.
func (o *list) in(s screen) rect {
	if o.area != nil {
		return o.area(s)
	}
	return s.body
}

// box is the list's size on a screen.
func (o *list) box(s screen) (w, h int) {
	r := o.in(s)
	w = min(r.w-4, 110)
	if o.width > 0 {
		w = min(r.w-4, o.width)
	}
	h = min(max(r.h-2, 5), len(o.items)+3)
	return w, h
}

// fit sizes the list for a screen and keeps the cursor in view.
func (o *list) fit(s screen) {
	_, h := o.box(s)
	o.height = max(h-3, 1)
	o.scroll()
}

func (o *list) draw(x *layerCtx, s screen) drawn {
	w, h := o.box(s)
	return centredIn(o.in(s), views.List(x.st, o.title, o.items, o.cursor, o.offset, w, h, o.foot))
}

// move moves the cursor by delta, skipping headers. A list without a
// cursor scrolls.
func (o *list) move(delta int) {
	if o.noCursor {
		o.offset += delta
		o.scroll()
		return
	}
	if len(o.items) == 0 {
		return
	}
	step := 1
	if delta < 0 {
		step = -1
	}
	c := o.cursor
	for n := 0; n < abs(delta); n++ {
		next := c + step
		for next >= 0 && next < len(o.items) && (o.items[next].Header || o.items[next].More) {
			next += step
		}
		if next < 0 || next >= len(o.items) {
			break
		}
		c = next
	}
	o.cursor = c
	o.scroll()
}

func (o *list) first() {
	if o.noCursor {
		o.offset = 0
		return
	}
	o.cursor = -1
	o.move(1)
	if o.cursor < 0 {
		o.cursor = 0
	}
	o.offset = 0
}

func (o *list) scroll() {
	rows := max(o.height, 1)
	if o.noCursor {
		o.offset = max(min(o.offset, len(o.items)-rows), 0)
		return
	}
	if o.cursor < o.offset {
		o.offset = o.cursor
		// show the section header above the first item
		if o.offset > 0 && o.items[o.offset-1].Header {
			o.offset--
		}
	}
	end := o.cursor // the cursor's item ends with its More rows
	for end+1 < len(o.items) && o.items[end+1].More {
		end++
	}
	if end >= o.offset+rows {
		o.offset = min(end-rows+1, o.cursor)
	}
}

// key is what the item under the cursor stands for.
func (o *list) key() string {
	if o.cursor >= 0 && o.cursor < len(o.keys) {
		return o.keys[o.cursor]
	}
	return ""
}

// selectKey puts the cursor on the item standing for k, if any.
func (o *list) selectKey(k string) {
	for i, kk := range o.keys {
		if kk == k && k != "" {
			o.cursor = i
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
