package flatten_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// TestViewSameTree: a view taken over for a snapshot that repeats the
// tree of another is the view NewView makes of it: the same text and
// lines, the snapshot's own header, the same token count. A JSON view,
// whose lines hold the header, is not taken over.
func TestViewSameTree(t *testing.T) {
	raw := recordings.Load(t, "synthetic-10000")
	first, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	next, err := build.Build(raw, build.Options{Prev: first})
	if err != nil {
		t.Fatal(err)
	}
	next.Title, next.Stamp = "another title", "2026-01-02T03:04:05Z"
	next.Frames = append([]dom.FrameInfo(nil), next.Frames...)
	next.Frames[0].URL = "http://example.test/moved"
	opts := dom.DefaultOptions()
	v, err := flatten.NewView(first, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	_ = v.Tokens()
	got := v.SameTree(next)
	want, err := flatten.NewView(next, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil {
		t.Fatal("no view taken over")
	}
	if got.Snap != next || got.Text != want.Text || len(got.Lines) != len(want.Lines) {
		t.Errorf("the view taken over is not the view of the snapshot")
	}
	a, _ := flatten.FormatJSON(got.Serialized())
	b, _ := flatten.FormatJSON(want.Serialized())
	if string(a) != string(b) {
		t.Errorf("the taken-over view's JSON differs:\n%.300s\n%.300s", a, b)
	}
	if got.NodeCount != want.NodeCount {
		t.Errorf("node count %d, want %d", got.NodeCount, want.NodeCount)
	}
	if got.Tokens() != want.Tokens() {
		t.Errorf("tokens %d, want %d", got.Tokens(), want.Tokens())
	}
	if sd := v.Serialized(); sd.Title == next.Title || sd.Frames[0].URL == next.Frames[0].URL {
		t.Errorf("taking the view over changed the first view's header")
	}
	j, err := flatten.NewView(first, opts, true)
	if err != nil {
		t.Fatal(err)
	}
	if j.SameTree(next) != nil {
		t.Errorf("a JSON view was taken over")
	}
}
