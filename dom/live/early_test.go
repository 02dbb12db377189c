package live_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// latePage reacts to clicks at once, and some of its buttons again 60 ms
// later. That late change is a DOM change, or a property change that
// fires no DOM event at all.
const latePage = `<!doctype html><title>late</title>
<p id=out>none</p>
<label><input type=checkbox id=box> quiet box</label>
<button id=now onclick="out.textContent = 'clicked'">now</button>
<button id=later onclick="out.textContent = 'first'; setTimeout(() => { out.textContent = 'second'; }, 60)">later</button>
<button id=tick onclick="out.textContent = 'ticking'; setTimeout(() => { box.checked = true; }, 60)">tick</button>
<button id=alerting onclick="out.textContent = 'alerting'; setTimeout(() => { alert('late'); out.textContent = 'after the alert'; }, 60)">alert</button>
<div id=more></div>
<script>
// #big makes the refresh long enough for the alert to open in its middle
if (location.hash === '#big') more.innerHTML = Array.from({length: 4000}, (_, i) => '<p><a href=#' + i + '>link ' + i + '</a> text ' + i + '</p>').join('');
</script>`

func serveLate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "late.html"), []byte(latePage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	return base + "/late.html"
}

// TestEarlyReadOverlapsSettling: the re-snapshot after a click whose
// changes come at once starts long before the quiet window ends. It
// prints what a full capture prints. The window is two seconds here, so
// a loaded machine's slow click still leaves room.
func TestEarlyReadOverlapsSettling(t *testing.T) {
	svc, p := openService(t, serveLate(t), Config{QuietWindow: 2 * time.Second})
	tw := newTwin(t, svc, p)
	start := time.Now()
	res := tw.do(t, Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "now").ID}, "click now")
	s := svc.Current()
	if s == nil || !strings.Contains(nodeText(s.Root), "clicked") {
		t.Fatalf("the snapshot after the click misses its change")
	}
	if res.Snapshot.Kind != "incremental" {
		t.Errorf("the re-snapshot was %s (%s)", res.Snapshot.Kind, svc.Fallback())
	}
	if began := s.Taken.Sub(start); began >= 2*time.Second {
		t.Errorf("the re-snapshot began %s after the action, after the quiet window: it did not start early", began)
	}
	if res.Duration < 2*time.Second {
		t.Errorf("the action took %s: it did not wait out the quiet window", res.Duration)
	}
}

// TestEarlyReadDroppedOnLateChange: a change after the early read began,
// in the DOM or only in a control's state, makes the service read the page
// again. The result shows the late change.
func TestEarlyReadDroppedOnLateChange(t *testing.T) {
	// The early read comes at once, the change 60 ms later: inside a
	// quiet window that a loaded machine's late timer cannot outrun.
	svc, p := openService(t, serveLate(t), Config{QuietWindow: 400 * time.Millisecond})
	tw := newTwin(t, svc, p)
	tw.do(t, Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "later").ID}, "click later")
	if got := nodeText(svc.Current().Root); !strings.Contains(got, "second") {
		t.Errorf("the snapshot after the click misses the change 60 ms later: %q", got)
	}
	tw.do(t, Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "tick").ID}, "click tick")
	if box := byAttrID(t, svc.Current(), "box"); box.States["checked"] != "true" {
		t.Errorf("the snapshot after the click misses the box ticked 60 ms later: %v", box.States)
	}
}

// TestEarlyReadMeetsADialog: an alert opens while the early read is
// under way. The page is big enough that its refresh outlasts the
// alert's 60 ms. The action ends with the dialog in sight. After it is
// accepted the page reads as a full capture does.
func TestEarlyReadMeetsADialog(t *testing.T) {
	svc, p := openService(t, serveLate(t)+"#big", Config{})
	tw := newTwin(t, svc, p)
	res := svc.Do(ctx(t), Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "alerting").ID})
	if !res.Success {
		t.Fatalf("click: %v", res.Error)
	}
	t.Logf("click: %.0f ms, dialog %v, snapshot %+v", res.DurationMs, res.Dialog != nil, res.Snapshot)
	// the alert comes 60 ms after the click: in the result, or just after
	deadline := time.Now().Add(hangGuard)
	for svc.Dialog() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if svc.Dialog() == nil {
		t.Fatalf("the alert never showed up (result %+v)", res)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true}))
	s, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(nodeText(s.Root), "after the alert") {
		t.Errorf("the page after the alert reads %q", nodeText(s.Root))
	}
	tw.check(t, "after the alert")
}
