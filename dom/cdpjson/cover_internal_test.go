package cdpjson

import (
	"slices"
	"testing"
)

func TestIDSet(t *testing.T) {
	var s IDSet
	ids := []int64{0, 1, 63, 64, 65, 1000, maxBitmapID - 1, maxBitmapID, 1 << 40, -5}
	for _, id := range ids {
		s.Add(id)
	}
	for _, id := range ids {
		if !s.Has(id) {
			t.Errorf("Has(%d) false", id)
		}
	}
	for _, id := range []int64{2, 62, 66, 999, maxBitmapID + 1} {
		if s.Has(id) {
			t.Errorf("Has(%d) true", id)
		}
	}
	var got []int64
	s.Each(func(id int64) { got = append(got, id) })
	slices.Sort(got)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Each: %v, want %v", got, want)
	}
	var none *IDSet
	if none.Has(1) {
		t.Error("a nil set holds 1")
	}
}
