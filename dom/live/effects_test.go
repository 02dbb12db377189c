package live_test

import (
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestVisualEffectsLeaveNoTrace checks that the click ripple and the node
// highlight never touch the DOM, so they cannot show up in a snapshot.
func TestVisualEffectsLeaveNoTrace(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{VisualEffects: true})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	before := snap(t, svc)
	evalJS(t, p, `window.muts = 0; new MutationObserver((l) => { window.muts += l.length; }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); true`)
	if err := svc.Highlight(ctx(t), byAttrID(t, before, "mod").ID); err != nil {
		t.Fatalf("highlight: %v", err)
	}
	res := do(t, svc, "mod", Action{Kind: "click"})
	mustOK(t, res)
	if res.VisualEffect == nil || res.VisualEffect.Type != "ripple" || res.VisualEffect.X <= 0 {
		t.Fatalf("no ripple reported: %+v", res.VisualEffect)
	}
	after := snap(t, svc)
	if v := evalJS(t, p, "window.muts"); v != float64(0) {
		t.Fatalf("effects mutated the DOM %v times", v)
	}
	if len(after.ByID) != len(before.ByID) {
		t.Fatalf("snapshot grew from %d to %d nodes", len(before.ByID), len(after.ByID))
	}
	time.Sleep(400 * time.Millisecond) // the ripple's end restores the highlight
	if err := svc.Highlight(ctx(t), ""); err != nil {
		t.Fatalf("hide highlight: %v", err)
	}
	if v := evalJS(t, p, "window.muts"); v != float64(0) {
		t.Fatalf("effects mutated the DOM %v times", v)
	}
	if err := svc.Highlight(ctx(t), "node_424242"); CodeOf(err) != NodeNotFound {
		t.Fatalf("highlight of an unknown id: %v", err)
	}
}

// TestEventsReportInvalidation checks Events delivers invalidations and
// dialogs.
func TestEventsReportInvalidation(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	drain(svc)
	go svc.Do(ctx(t), Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "alert").ID})
	seen := map[string]bool{}
	timeout := time.After(hangGuard)
	for !(seen["invalidated"] && seen["dialog"]) {
		select {
		case e := <-svc.Events():
			seen[e.Kind] = true
		case <-timeout:
			t.Fatalf("events seen: %v", seen)
		}
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true}))
}

func drain(svc *Service) {
	for {
		select {
		case <-svc.Events():
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}
