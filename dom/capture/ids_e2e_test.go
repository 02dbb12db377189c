package capture_test

import (
	"context"
	"testing"
	"time"

	"domscope/dom/build"
	"domscope/dom/flatten"
)

// TestIDsAcrossCaptures takes two captures of the same page in real
// Chromium. The second is built with the first as Prev. Every node keeps
// its ID. After the page inserts an element, the old nodes still keep
// theirs. The new ones get fresh numbers.
func TestIDsAcrossCaptures(t *testing.T) {
	p, _, _ := capOpen(t, "semantic.html")
	first, err := build.Build(capRaw(t, p), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := build.Build(capRaw(t, p), build.Options{Prev: first})
	if err != nil {
		t.Fatal(err)
	}
	if d := flatten.Diff(first, second); !d.Empty() {
		t.Errorf("same page, new capture: %+v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	js := `const b = document.createElement('button'); b.id = 'added'; b.textContent = 'Added later'; document.querySelector('main').prepend(b)`
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": js}, nil); err != nil {
		t.Fatal(err)
	}
	third, err := build.Build(capRaw(t, p), build.Options{Prev: second})
	if err != nil {
		t.Fatal(err)
	}
	d := flatten.Diff(second, third)
	if len(d.Removed) != 0 || len(d.Added) != 2 { // the button and its text
		t.Errorf("after inserting a button: %+v", d)
	}
	for _, id := range d.Added {
		if first.ByID[id] != nil {
			t.Errorf("new node got an old ID %s", id)
		}
	}
	for id, n := range second.ByID {
		m := third.ByID[id]
		if m == nil || m.BackendID != n.BackendID {
			t.Errorf("%s changed: %+v -> %+v", id, n.Tag, m)
			break
		}
	}
}
