package live_test

import (
	"fmt"
	"maps"
	"reflect"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/flatten"
	. "domscope/dom/live"
)

// TestIncrementalOldSnapshotsUnchanged: a refresh shares what did not
// change with the snapshot before it (attribute maps). On a page that
// changes by itself, each snapshot after an action still prints what a
// full capture prints. Every snapshot taken before stays exactly as it
// was: the UI shows it, and the diff reads it, while the next is built.
// Each view's tokens, counted from the view before, are the whole count.
func TestIncrementalOldSnapshotsUnchanged(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/churn.html", Config{})
	tw := newTwin(t, svc, p)
	type kept struct {
		s     *Snapshot
		out   map[string]string
		attrs map[string]map[string]string
	}
	keep := func(s *Snapshot) kept {
		attrs := map[string]map[string]string{}
		for id, n := range s.ByID {
			attrs[id] = maps.Clone(n.Attrs)
		}
		return kept{s, outputs(t, s), attrs}
	}
	var old []kept
	old = append(old, keep(snap(t, svc)))
	actions := []func(s *Snapshot) Action{
		func(s *Snapshot) Action { return Action{Kind: "click", ID: byAttrID(t, s, "go").ID} },
		func(s *Snapshot) Action { return Action{Kind: "type", ID: byAttrID(t, s, "note").ID, Text: "abc"} },
		func(s *Snapshot) Action { return Action{Kind: "key", Key: "Tab"} },
	}
	shared := 0
	for i := range 6 {
		prev := snap(t, svc)
		// as the UI does: the view's tokens are counted once shown
		if v, err := svc.View(prev, DefaultOptions(), false); err != nil || v.Tokens() == 0 {
			t.Fatalf("view before action %d: %v", i, err)
		}
		res := svc.Do(ctx(t), actions[i%len(actions)](prev))
		if !res.Success {
			t.Fatalf("action %d failed: %v", i, res.Error)
		}
		s := svc.Current()
		if s == nil {
			t.Fatalf("action %d left no snapshot", i)
		}
		for id, n := range s.ByID {
			if o := prev.ByID[id]; o != nil && n.Attrs != nil && o.Attrs != nil &&
				reflect.ValueOf(o.Attrs).UnsafePointer() == reflect.ValueOf(n.Attrs).UnsafePointer() {
				shared++
			}
		}
		tw.checkChurn(t, s, fmt.Sprintf("action %d", i))
		// counted from the view before, line by line: as counted whole
		v, err := svc.View(s, DefaultOptions(), false)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := v.Tokens(), flatten.CountTokens(v.Text); got != want {
			t.Errorf("action %d: the view has %d tokens, %d counted whole", i, got, want)
		}
		for k, o := range old {
			now := keep(o.s)
			for f, v := range o.out {
				if now.out[f] != v {
					t.Errorf("after action %d, snapshot %d's %s changed:\n%s", i, k, f, lineDiff(v, now.out[f]))
				}
			}
			if !reflect.DeepEqual(now.attrs, o.attrs) {
				t.Errorf("after action %d, snapshot %d's attributes changed", i, k)
			}
		}
		if t.Failed() {
			break
		}
		old = append(old, keep(s))
	}
	if shared == 0 {
		t.Errorf("no attribute map was shared with the snapshot before")
	}
	t.Logf("%d incremental, %d full, %d attribute maps shared", tw.incremental, tw.full, shared)
}
