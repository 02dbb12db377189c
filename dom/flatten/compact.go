package flatten

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"domscope/dom"
)

// The compact format (issue 33, seed 003 §8): a flat array of the view's
// nodes with one-letter keys, and where the page stands. Text lines are
// left out: it is for acting. i is the id of [N].

// CompactNode is one node of the compact format.
type CompactNode struct {
	I   string         `json:"i"`
	R   string         `json:"r"`
	N   string         `json:"n,omitempty"`
	V   string         `json:"v,omitempty"`
	S   string         `json:"s,omitempty"`
	XY  *[2]int        `json:"xy,omitempty"`
	Box *[4]int        `json:"box,omitempty"`
	F   int            `json:"f,omitempty"`
	Occ bool           `json:"occ,omitempty"`
	Scr *CompactScroll `json:"scr,omitempty"`
	By  string         `json:"by,omitempty"` // what covers it (occ)
}

// CompactScroll is seed 003's scroll field: how deep, and whether more
// lies below.
type CompactScroll struct {
	Depth string `json:"depth"`
	H     bool   `json:"h"`
}

// Compact is the compact payload.
type Compact struct {
	URL                  string         `json:"url"`
	Title                string         `json:"title"`
	ScrollPosition       *CompactScroll `json:"scroll_position,omitempty"`
	Viewport             *[4]int        `json:"viewport,omitempty"`
	ScrollableContainers []string       `json:"scrollable_containers,omitempty"`
	RecentEvents         []CompactEvent `json:"recent_events,omitempty"`
	Nodes                []CompactNode  `json:"nodes"`
}

// CompactEvent is one thing the page did by itself since the last
// action answered (dom.Later): a node that flashed, or a changed line
// of the view.
type CompactEvent struct {
	Type string  `json:"type"` // flashed, changed
	I    string  `json:"i,omitempty"`
	R    string  `json:"r,omitempty"`
	Text string  `json:"text"`
	Ms   float64 `json:"ms"` // how long it showed (flashed); after the action (changed)
}

// recentEvents are l's flashes and changed lines.
func recentEvents(l *dom.Later) []CompactEvent {
	if l == nil {
		return nil
	}
	var out []CompactEvent
	for _, f := range l.Flashed {
		out = append(out, CompactEvent{Type: "flashed", I: shortID(f.ID), R: f.Role, Text: f.Text, Ms: math.Round(f.Ms)})
	}
	for _, line := range l.Flat {
		out = append(out, CompactEvent{Type: "changed", Text: line, Ms: math.Round(l.AfterMs)})
	}
	return out
}

// FormatCompact writes sd (flattened with bounds) in the compact format;
// look (may be nil) gives the viewport, recent (may be nil) what the page
// did since the last action answered.
func FormatCompact(s *dom.Snapshot, sd *dom.SerializedDom, look *dom.Look, recent *dom.Later) ([]byte, error) {
	c := Compact{URL: sd.URL, Title: sd.Title, Nodes: []CompactNode{}, RecentEvents: recentEvents(recent)}
	if sd.Scroll != nil {
		c.ScrollPosition = compactScroll(sd.Scroll)
	}
	if look != nil && look.Viewport.W > 0 {
		vp := look.Viewport
		c.Viewport = &[4]int{int(vp.X), int(vp.Y), int(vp.W), int(vp.H)}
	}
	frames := map[string]int{}
	for i, f := range sd.Frames {
		frames[f.FrameID] = i
	}
	eachTextNode(sd, func(n *dom.SerializedNode, _ int) {
		if n.Role == "text" || n.Role == "more" || n.ID == "" {
			return
		}
		cn := CompactNode{I: shortID(n.ID), R: textRole(n), N: n.Name, V: n.Value, By: shortID(n.CoveredBy), Occ: n.CoveredBy != ""}
		var st []string
		for _, x := range []struct {
			on   bool
			name string
		}{{n.Checked == "true", "checked"}, {n.Expanded == "true", "expanded"}, {n.Selected, "selected"}, {n.Pressed == "true", "pressed"}, {n.Disabled, "disabled"}, {n.Focused, "focused"}, {n.Required, "required"}} {
			if x.on {
				st = append(st, x.name)
			}
		}
		cn.S = strings.Join(st, ",")
		if b := n.Bounds; b != nil {
			cn.Box = &[4]int{int(math.Round(b.X)), int(math.Round(b.Y)), int(math.Round(b.W)), int(math.Round(b.H))}
			cn.XY = &[2]int{int(math.Round(b.X + b.W/2)), int(math.Round(b.Y + b.H/2))}
		}
		if v := s.Node(n.ID); v != nil {
			cn.F = frames[v.FrameID]
		}
		if n.Scroll != nil {
			cn.Scr = compactScroll(n.Scroll)
			c.ScrollableContainers = append(c.ScrollableContainers, cn.I)
		}
		c.Nodes = append(c.Nodes, cn)
	})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

func compactScroll(st *dom.ScrollState) *CompactScroll {
	pct := 0
	if span := st.Height - st.Client; span > 0 {
		pct = int(math.Round(100 * st.Top / span))
	}
	return &CompactScroll{Depth: strconv.Itoa(pct) + "%", H: st.MoreBelow}
}
