package flatten_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// BenchmarkFlatten flattens the recorded synthetic-10000 page (about
// 21,000 nodes) with the default options, decisions included.
func BenchmarkFlatten(b *testing.B) {
	s, err := build.Build(recordings.Load(b, "synthetic-10000"), build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	opts := dom.DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		flatten.Flatten(s, opts)
	}
}
