package live_test

import (
	"testing"
	"unsafe"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	. "domscope/dom/live"
)

// TestIncrementalSameTree: a click that changes no DOM node refreshes
// from a copy of the last tree. When nothing at all changed, the views
// of the tree before are taken over rather than made again. Between
// clicks the page changes without DOM events (a field's value, a box
// checked, the scroll) and with one. After each click the service's
// views and its diff must say what a full capture of the page says.
func TestIncrementalSameTree(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/noop.html", Config{})
	tw := newTwin(t, svc, p)
	onscreen := DefaultOptions()
	onscreen.IncludeOffscreen = false
	views := func(s *Snapshot) []*flatten.View {
		var out []*flatten.View
		for _, o := range []Options{DefaultOptions(), onscreen} {
			v, err := svc.View(s, o, false)
			if err != nil || v == nil {
				t.Fatalf("view: %v", err)
			}
			out = append(out, v)
		}
		return out
	}
	steps := []struct {
		name   string
		before string // JS run on the page before the click
		same   bool   // nothing changes: the views are taken over
		lines  bool   // the agent's text changes before the click
	}{
		// Focus on the node clicked is no news: the verdict says so.
		{"first click (focus moves)", "", false, false},
		{"second click", "", true, false},
		{"third click", "", true, false},
		{"a value set by script", "setNote('typed by script')", false, true},
		{"a box checked by script", "tick()", false, true},
		{"scrolled by script", "scrollTo(0, 2500), true", false, false},
		{"nothing again", "", true, false},
		{"a DOM change", "document.getElementById('out').textContent = 'moved', true", false, true},
		{"nothing after it", "", true, false},
	}
	for _, st := range steps {
		prev := snap(t, svc)
		before := views(prev)
		if st.before != "" {
			evalJS(t, p, st.before)
		}
		res := svc.Do(ctx(t), Action{Kind: "click", ID: byAttrID(t, prev, "noop").ID})
		if !res.Success {
			t.Fatalf("%s: click failed: %v", st.name, res.Error)
		}
		s := svc.Current()
		if s == nil || !s.Incremental {
			t.Fatalf("%s: no incremental snapshot (%s)", st.name, svc.Fallback())
		}
		full, err := capture.Take(ctx(t), tw.page, build.Options{Prev: s})
		if err != nil {
			t.Fatalf("%s: full capture: %v", st.name, err)
		}
		for i, v := range views(s) {
			sd, _ := flatten.Flatten(full, v.Opts)
			if want := flatten.FormatText(sd); v.Text != want {
				t.Errorf("%s: view %d differs from a full capture's:\n%s", st.name, i, lineDiff(want, v.Text))
			}
			// The service keeps the newest snapshot's views only: the
			// default one (what an action's diff reads) is made first.
			taken := unsafe.StringData(v.Text) == unsafe.StringData(before[i].Text)
			if i == 0 && taken != st.same || i > 0 && taken && !st.same {
				t.Errorf("%s: view %d taken over from the tree before: %v, want %v", st.name, i, taken, st.same)
			}
		}
		d := flatten.Diff(prev, s)
		empty := d.Empty() && len(res.Changes.Nodes) == 0 && len(res.Changes.Flat) == 0
		if st.same && !empty {
			t.Errorf("%s: nothing changed, yet the diff says %+v, the result %+v", st.name, d, res.Changes)
		}
		// A change made before the click is a late effect once its DOM
		// event is in; one that races the click is the click's. Never both.
		late := res.Later != nil && len(res.Later.Flat) > 0
		if own := len(res.Changes.Flat) > 0; st.lines != (late || own) || late && own {
			t.Errorf("%s: changed lines late %v, the click's own %q; want some: %v, never both", st.name, late, res.Changes.Flat, st.lines)
		}
		tw.check(t, st.name)
	}
}
