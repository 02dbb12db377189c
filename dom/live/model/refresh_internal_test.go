package model

import (
	"slices"
	"testing"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// layoutOf makes a target's layout facts from boxes, in layout order.
// Each box is given as a backend id and its cursor style. It has a
// string table of its own, as each DOMSnapshot has.
func layoutOf(boxes ...any) *cdpjson.Target {
	ti := &cdpjson.Target{Boxes: map[int64]*cdpjson.Box{}, Strings: []string{"unused"}}
	for i := 0; i+1 < len(boxes); i += 2 {
		b := cdpjson.Box{ID: boxes[i].(int64), NStyles: uint8(len(dom.LayoutStyles))}
		for k := range b.Styles {
			b.Styles[k] = -1
		}
		ti.Strings = append(ti.Strings, boxes[i+1].(string))
		b.Styles[cdpjson.CursorStyle] = int32(len(ti.Strings) - 1)
		ti.Layout = append(ti.Layout, b)
	}
	for i := range ti.Layout {
		ti.Boxes[ti.Layout[i].ID] = &ti.Layout[i]
	}
	return ti
}

// TestLayoutDiff: boxes whose style changed, that appeared or went are
// listed. That holds whether or not the two layouts list the rest in the
// same order. Control states that changed are listed apart.
func TestLayoutDiff(t *testing.T) {
	old := layoutOf(int64(1), "auto", int64(2), "auto", int64(3), "pointer", int64(4), "auto", int64(5), "auto")
	for _, c := range []struct {
		name  string
		fresh *cdpjson.Target
		want  []int64
	}{
		{"same", layoutOf(int64(1), "auto", int64(2), "auto", int64(3), "pointer", int64(4), "auto", int64(5), "auto"), nil},
		{"a style", layoutOf(int64(1), "auto", int64(2), "pointer", int64(3), "pointer", int64(4), "auto", int64(5), "auto"), []int64{2}},
		{"inserted, then a style", layoutOf(int64(1), "auto", int64(9), "auto", int64(2), "auto", int64(3), "auto", int64(4), "auto", int64(5), "auto"), []int64{3, 9}},
		{"removed", layoutOf(int64(1), "auto", int64(3), "pointer", int64(4), "auto", int64(5), "auto"), []int64{2}},
		{"moved", layoutOf(int64(1), "auto", int64(4), "auto", int64(2), "auto", int64(3), "pointer", int64(5), "auto"), nil},
		{"last removed", layoutOf(int64(1), "auto", int64(2), "auto", int64(3), "pointer", int64(4), "auto"), []int64{5}},
		{"added at the end", layoutOf(int64(1), "auto", int64(2), "auto", int64(3), "pointer", int64(4), "auto", int64(5), "auto", int64(6), "auto"), []int64{6}},
		{"empty", layoutOf(), []int64{1, 2, 3, 4, 5}},
	} {
		got, states := layoutDiff(old, c.fresh)
		slices.Sort(got)
		if !slices.Equal(got, c.want) || len(states) > 0 {
			t.Errorf("%s: %v and states %v, want %v and none", c.name, got, states, c.want)
		}
	}
	old.Values, old.Checked = map[int64]string{1: "a", 2: "b"}, map[int64]bool{4: true}
	fresh := layoutOf(int64(1), "auto", int64(2), "auto", int64(3), "pointer", int64(4), "auto", int64(5), "auto")
	fresh.Values, fresh.Checked = map[int64]string{1: "a", 2: "c", 3: ""}, map[int64]bool{5: true}
	boxes, states := layoutDiff(old, fresh)
	slices.Sort(states)
	if len(boxes) > 0 || !slices.Equal(states, []int64{2, 3, 4, 5}) {
		t.Errorf("values and checked changed: boxes %v, states %v, want none and [2 3 4 5]", boxes, states)
	}
}
