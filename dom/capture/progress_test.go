package capture_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
)

// A capture tells a progress callback its phases, in order: frames, the
// parts still outstanding, then building.
func TestTakeReportsPhases(t *testing.T) {
	p, _, _ := capOpen(t, "hidden.html")
	var mu sync.Mutex
	var phases []string
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx = dom.WithProgress(ctx, func(s string) {
		mu.Lock()
		phases = append(phases, s)
		mu.Unlock()
	})
	if _, err := capture.Take(ctx, p, build.Options{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(phases) < 3 || phases[0] != "listing frames" || phases[len(phases)-1] != "building" {
		t.Fatalf("phases %q: want listing frames first and building last", phases)
	}
	if !slices.Contains(phases, "capturing DOM, accessibility, layout, listeners") {
		t.Errorf("phases %q lack the capture's parts", phases)
	}
	for _, s := range phases[1 : len(phases)-1] {
		if !strings.HasPrefix(s, "capturing ") {
			t.Errorf("unexpected phase %q in %q", s, phases)
		}
	}
}
