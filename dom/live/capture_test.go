package live_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	. "domscope/dom/live"
)

// allOptions shows everything a snapshot holds: values, hidden and
// offscreen nodes, bounds and backend ids.
var allOptions = Options{IncludeValues: true, IncludeHidden: true, IncludeOffscreen: true, IncludeBoundingBoxes: true, IncludeBackendIDs: true}

// sameAsBuilt checks that building s's capture (Snapshot.Capture) with
// s's IDs prints what s prints, in every format and with every option.
func sameAsBuilt(t *testing.T, s *Snapshot, step string) {
	t.Helper()
	raw, err := s.Capture()
	if err != nil {
		t.Fatalf("%s: the capture: %v", step, err)
	}
	b, err := build.Build(raw, build.Options{Prev: s})
	if err != nil {
		t.Fatalf("%s: building the capture: %v", step, err)
	}
	want, got := outputs(t, s), outputs(t, b)
	for _, o := range []struct {
		name string
		s    *Snapshot
		out  map[string]string
	}{{"model", s, want}, {"capture", b, got}} {
		sd, _ := flatten.Flatten(o.s, allOptions)
		js, err := flatten.FormatJSON(sd)
		if err != nil {
			t.Fatal(err)
		}
		o.out["json, every option"] = timestampRE.ReplaceAllString(string(js), `"timestamp":""`)
	}
	for k, w := range want {
		if got[k] != w {
			split := func(s string) string { return strings.ReplaceAll(s, "},{", "},\n{") }
			t.Errorf("%s: the %s of the written-out capture differs from the snapshot's (- snapshot, + capture):\n%s", step, k, lineDiff(split(w), split(got[k])))
		}
	}
}

// TestLiveSnapshotCapture: a snapshot of the live model keeps no CDP JSON.
// It writes the model out as a capture that builds to the same output,
// field values, checked and selected states and bounds included. It does
// so only while the model is as it was. After the page changes, Capture
// and Rebuild say so (ErrPageChanged). The service's SetTierRules then
// leaves the rebuild to a new snapshot.
func TestLiveSnapshotCapture(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/fields.html", Config{})

	s1 := snap(t, svc)
	if s1.Raw != nil || !s1.HasCapture() {
		t.Fatalf("the first snapshot keeps its CDP JSON (%v) or has no capture (%v)", s1.Raw != nil, s1.HasCapture())
	}
	sameAsBuilt(t, s1, "first snapshot")

	mustOK(t, do(t, svc, "q", Action{Kind: "type", Text: "typed value"}))
	mustOK(t, do(t, svc, "pick", Action{Kind: "select", Value: "Two"}))
	mustOK(t, do(t, svc, "agree", Action{Kind: "click"}))
	s2 := svc.Current()
	if !s2.Incremental {
		t.Fatalf("the snapshot after the actions is not incremental (%s)", svc.Fallback())
	}
	sameAsBuilt(t, s2, "after typing, selecting and ticking")

	if _, err := s1.Capture(); !errors.Is(err, ErrPageChanged) {
		t.Errorf("the first snapshot's capture after the page changed: %v, want ErrPageChanged", err)
	}
	if _, err := build.Rebuild(s1, map[string]bool{"onclick": true}); !errors.Is(err, ErrPageChanged) {
		t.Errorf("rebuilding the first snapshot after the page changed: %v, want ErrPageChanged", err)
	}
	// The latest one rebuilds from the model, still with no CDP JSON.
	ns, err := svc.SetTierRules(map[string]bool{"onclick": true})
	if err != nil || ns == nil || ns.Raw != nil || !ns.HasCapture() {
		t.Fatalf("SetTierRules on a current snapshot: %v %v", ns, err)
	}
	if ns.Node(s2.Root.ID) == nil {
		t.Errorf("the rebuild lost the IDs")
	}

	// The page changes by itself: the model follows it, the snapshot
	// cannot be written out, the service asks for a new one.
	evalJS(t, p, `document.body.appendChild(document.createElement('p')).textContent = 'added later'`)
	var err2 error
	for i := 0; i < 250 && !errors.Is(err2, ErrPageChanged); i++ {
		time.Sleep(20 * time.Millisecond) // until the DOM event reaches the model
		_, err2 = ns.Capture()
	}
	if !errors.Is(err2, ErrPageChanged) {
		t.Fatalf("the capture of a snapshot the page moved on from: %v, want ErrPageChanged", err2)
	}
	if got, err := svc.SetTierRules(nil); got != nil || err != nil {
		t.Errorf("SetTierRules after the page changed: %v %v, want nothing (the caller takes a new snapshot)", got, err)
	}
	s3, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if !s3.Incremental {
		t.Errorf("the snapshot after the page changed is not incremental (%s)", svc.Fallback())
	}
	sameAsBuilt(t, s3, "after the page changed by itself")
}
