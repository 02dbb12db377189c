package flatten_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// BenchmarkFlattenLook flattens synthetic-10000 with what issue 33 adds:
// folds, the modal scope, covered controls (every control in the
// viewport given hit tests, as query.ReadLook reads them) and,
// separately, the interactive and the query views. Compare with
// BenchmarkFlatten.
func BenchmarkFlattenLook(b *testing.B) {
	s, err := build.Build(recordings.Load(b, "synthetic-10000"), build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	look := &dom.Look{Hits: map[*dom.VirtualNode]*[dom.LookPoints]dom.Hit{}}
	_, controls := flatten.LookWants(s, true)
	for _, n := range controls {
		var h [dom.LookPoints]dom.Hit
		for k := range h {
			h[k] = dom.Hit{In: true, Node: n}
		}
		look.Hits[n] = &h
	}
	opts := dom.DefaultOptions()
	opts.Fold, opts.ModalScope, opts.Covered, opts.Look = true, true, true, look
	b.Run("folds+modal+covered", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			flatten.Flatten(s, opts)
		}
	})
	b.Run("interactive", func(b *testing.B) {
		o := opts
		o.Interactive = true
		for b.Loop() {
			flatten.Flatten(s, o)
		}
	})
	b.Run("query", func(b *testing.B) {
		o := dom.DefaultOptions()
		for b.Loop() {
			sd, _ := flatten.Flatten(s, o)
			flatten.QueryText(sd, "button 5000", 0)
		}
	})
}
