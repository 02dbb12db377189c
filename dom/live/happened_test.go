package live_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// happenedPages are the pages of what an action did: flashes, late
// effects, tabs.
var happenedPages = domtest.Testdata("pages", "happened")

// openTicking opens page and lets its clock tick a few times after the
// first snapshot, so the service has seen it change by itself.
func openTicking(t *testing.T, page string) (*Service, *cdpconn.Page) {
	t.Helper()
	base, _ := cdptest.Serve(t, happenedPages)
	svc, p := openService(t, base+"/"+page, Config{})
	snap(t, svc)
	time.Sleep(700 * time.Millisecond) // several ticks of the 150 ms clock
	return svc, p
}

func flashText(fs []Flash) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Role + ":" + f.Text + ";")
	}
	return b.String()
}

func TestNoOpOnTickingPageIsNone(t *testing.T) {
	svc, _ := openTicking(t, "flash.html")
	for range 2 {
		res := do(t, svc, "noop", Action{Kind: "click"})
		mustOK(t, res)
		if res.Effect != EffectNone {
			t.Fatalf("a button that does nothing on a page with a clock: effect %q, flat %q, flashed %+v, nodes %+v", res.Effect, res.Changes.Flat, res.Flashed, res.Changes.Nodes)
		}
		if len(res.Changes.Flat) != 0 || len(res.Flashed) != 0 {
			t.Errorf("the clock's own ticks are listed: %q %+v", res.Changes.Flat, res.Flashed)
		}
	}
}

func TestFlashesAreReported(t *testing.T) {
	svc, _ := openTicking(t, "flash.html")
	for _, c := range []struct{ button, role, text string }{
		{"f100", "status", "Flash 100"},
		{"f300", "status", "Flash 300"},
		{"f600", "status", "Flash 600"},
		{"shown", "alert", "Session expired"},
		{"sflash", "alert", "Shadow saved"},
		{"iconflash", "status", "Done: Link copied"},
	} {
		res := do(t, svc, c.button, Action{Kind: "click"})
		mustOK(t, res)
		// Gone by the snapshot, it flashed; still there, it was announced.
		said := flashText(res.Flashed)
		for _, a := range res.Announced {
			said += a.Role + ":" + a.Text + ";"
		}
		if !strings.Contains(said, c.role+":"+c.text+";") {
			t.Errorf("%s: flashed %+v, announced %+v, want %s %q (flat %q)", c.button, res.Flashed, res.Announced, c.role, c.text, res.Changes.Flat)
		}
		if c.button == "f100" && !strings.Contains(flashText(res.Flashed), c.role+":"+c.text+";") {
			t.Errorf("a 100 ms flash, gone before the snapshot, is not in flashed: %+v", res.Flashed)
		}
		if res.Effect != EffectChanged {
			t.Errorf("%s: effect %q, want changed", c.button, res.Effect)
		}
	}
}

func TestLateEffectGoesToItsAction(t *testing.T) {
	svc, p := openTicking(t, "flash.html")
	for _, c := range []struct{ button, text string }{
		{"late200", "Export ready 200"}, {"late400", "Export ready 400"}, {"late1500", "Export ready 1500"},
	} {
		res := do(t, svc, c.button, Action{Kind: "click"})
		mustOK(t, res)
		own := strings.Join(res.Changes.Flat, "\n")
		if res.Later == nil {
			// It came within the action: its own change.
			if !strings.Contains(own, c.text) {
				// Or not yet: wait for it, then the next action says it.
				cdptest.WaitFor(t, p, "document.getElementById('out').textContent.includes("+domtest.JSQuote(c.text)+")")
				next := do(t, svc, "noop", Action{Kind: "click"})
				mustOK(t, next)
				if next.Later == nil || !strings.Contains(strings.Join(next.Later.Flat, "\n"), c.text) {
					t.Fatalf("%s: the late effect is not reported as late: later %+v, flat %q", c.button, next.Later, next.Changes.Flat)
				}
				if strings.Contains(strings.Join(next.Changes.Flat, "\n"), c.text) {
					t.Errorf("%s: the late effect is in the next action's own diff: %q", c.button, next.Changes.Flat)
				}
				if next.Effect != EffectNone {
					t.Errorf("%s: the no-op after a late effect: effect %q", c.button, next.Effect)
				}
			}
		}
	}
}

func TestTabsOpened(t *testing.T) {
	base, _ := cdptest.Serve(t, happenedPages)
	svc, _ := openService(t, base+"/tabs.html", Config{})
	for _, c := range []struct{ id, url string }{{"blank", "other.html"}, {"pop", "other.html?pop"}} {
		res := do(t, svc, c.id, Action{Kind: "click"})
		mustOK(t, res)
		if res.Effect != EffectNewTab || len(res.TabsOpened) != 1 || !strings.HasSuffix(res.TabsOpened[0].URL, c.url) || res.TabsOpened[0].Target == "" {
			t.Errorf("%s: effect %q, tabs %+v", c.id, res.Effect, res.TabsOpened)
		}
	}
	res := do(t, svc, "post", Action{Kind: "click"})
	mustOK(t, res)
	if res.Effect != EffectNavigated || len(res.TabsOpened) != 0 {
		t.Errorf("a form POST: effect %q, tabs %+v", res.Effect, res.TabsOpened)
	}
}

func TestErrorsSeen(t *testing.T) {
	svc, _ := openTicking(t, "flash.html")
	res := do(t, svc, "validate", Action{Kind: "click"})
	mustOK(t, res)
	got := strings.Join(res.ErrorsSeen, "\n")
	if !strings.Contains(got, `"Email": "Enter an email like a@b.c"`) {
		t.Errorf("the invalid field and its message are not in errors_seen: %q", res.ErrorsSeen)
	}
}

func TestLateFlashIsSaid(t *testing.T) {
	svc, p := openTicking(t, "flash.html")
	res := do(t, svc, "save", Action{Kind: "click"})
	mustOK(t, res)
	if strings.Contains(strings.Join(res.Changes.Flat, "\n"), "Invalid email") {
		t.Skipf("the machine is so slow the alert came within the click")
	}
	cdptest.WaitFor(t, p, "window.saved === true")
	now, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	l := svc.Later(now)
	if l == nil || !strings.Contains(flashText(l.Flashed), "alert:Invalid email address;") {
		t.Fatalf("the alert that came and went after the click: later %+v", l)
	}
}

// TestTypeKeyByKeyInCombobox: the WAI-ARIA combobox filters its list on
// keyup. Typing goes key by key there, so the list opens the first time;
// a plain field gets the text at once.
func TestTypeKeyByKeyInCombobox(t *testing.T) {
	base, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "aria-practices"))
	svc, p := openService(t, base+"/content/patterns/combobox/examples/combobox-autocomplete-list.html", Config{})
	res := do(t, svc, "cb1-input", Action{Kind: "type", Text: "Ala"})
	mustOK(t, res)
	if res.Typed != "keys" {
		t.Errorf("typed %q into a combobox that listens for keys", res.Typed)
	}
	if got := evalString(t, p, "document.getElementById('cb1-input').getAttribute('aria-expanded')"); got != "true" {
		t.Errorf("the combobox's list did not open: aria-expanded=%s", got)
	}
	if got := evalString(t, p, "document.getElementById('cb1-input').value"); got != "Ala" {
		t.Errorf("value %q", got)
	}
	// A sequence of keys, pressed in turn: the second option is picked.
	mustOK(t, do(t, svc, "cb1-input", Action{Kind: "key", Key: "ArrowDown ArrowDown Enter"}))
	if got := evalString(t, p, "document.getElementById('cb1-input').value"); got != "Alaska" {
		t.Errorf("after ArrowDown ArrowDown Enter the combobox holds %q, want Alaska", got)
	}
	plain, _ := cdptest.Serve(t, happenedPages)
	svc2, _ := openService(t, plain+"/flash.html", Config{})
	res = do(t, svc2, "email", Action{Kind: "type", Text: "a@b.c"})
	mustOK(t, res)
	if res.Typed != "insert" {
		t.Errorf("typed %q into a field nobody listens to the keys of", res.Typed)
	}
}

// TestFlashesInFrames: a toast that comes and goes inside a same-origin
// frame is a flash; a status that speaks there is announced.
func TestFlashesInFrames(t *testing.T) {
	base, _ := cdptest.Serve(t, happenedPages)
	svc, p := openService(t, base+"/frame-same.html", Config{})
	cdptest.WaitFor(t, p, "!!document.getElementById('f').contentDocument?.getElementById('fannounce')")
	snap(t, svc)
	res := do(t, svc, "fflash100", Action{Kind: "click"})
	mustOK(t, res)
	if !strings.Contains(flashText(res.Flashed), "status:Frame flash 100;") || res.Effect != EffectChanged {
		t.Errorf("a 100 ms flash in a same-origin frame: effect %q, flashed %+v, flat %q", res.Effect, res.Flashed, res.Changes.Flat)
	}
	res = do(t, svc, "fannounce", Action{Kind: "click"})
	mustOK(t, res)
	if said := announcedText(res.Announced); !strings.Contains(said, "status:Frame copied;") {
		t.Errorf("a status in a same-origin frame: announced %+v, flat %q", res.Announced, res.Changes.Flat)
	}
}

func announcedText(as []Announcement) string {
	said := ""
	for _, a := range as {
		said += a.Role + ":" + a.Text + ";"
	}
	return said
}

// TestAnnouncedInCrossOriginFrame: a status that speaks inside an
// out-of-process frame is announced (its flashes are not seen: the
// witness follows the page's own DOM events). A field's text never is.
func TestAnnouncedInCrossOriginFrame(t *testing.T) {
	base, _ := cdptest.Serve(t, happenedPages)
	svc, p := openService(t, base+"/frame.html", Config{})
	cdptest.WaitFor(t, p, "document.readyState === 'complete'")
	var s *Snapshot
	for range 50 {
		if s = snap(t, svc); hasAttrID(s, "fannounce") {
			break
		}
		time.Sleep(100 * time.Millisecond)
		svc.Invalidate()
	}
	if !hasAttrID(s, "fannounce") {
		t.Fatal("the frame's button never came")
	}
	res := do(t, svc, "fannounce", Action{Kind: "click"})
	mustOK(t, res)
	if said := announcedText(res.Announced); !strings.Contains(said, "status:Frame copied;") || res.Effect != EffectChanged {
		t.Errorf("a status in a cross-origin frame: effect %q, announced %+v, flat %q", res.Effect, res.Announced, res.Changes.Flat)
	}
	res = do(t, svc, "fsecret", Action{Kind: "click"})
	mustOK(t, res)
	if strings.Contains(fmt.Sprintf("%+v", res), "246810") {
		t.Errorf("a one-time code's text is in the result: %+v", res)
	}
}

func hasAttrID(s *Snapshot, id string) bool {
	found := false
	Walk(s.Root, func(n *VirtualNode) { found = found || n.Attrs["id"] == id })
	return found
}

// TestFlashesInCrossOriginFrame: toasts that come and go inside an
// out-of-process frame, gone before the action answers, are flashes with
// their role, text and life. A one-time code inside one never shows.
func TestFlashesInCrossOriginFrame(t *testing.T) {
	base, _ := cdptest.Serve(t, happenedPages)
	// A quiet window longer than the longest toast: the action answers
	// after it went, which is when a flash is what it is.
	svc, p := openService(t, base+"/frame.html", Config{QuietWindow: 1500 * time.Millisecond, SettleTimeout: 10 * time.Second})
	cdptest.WaitFor(t, p, "document.readyState === 'complete'")
	var s *Snapshot
	for range 50 {
		if s = snap(t, svc); hasAttrID(s, "fcodetoast") {
			break
		}
		time.Sleep(100 * time.Millisecond)
		svc.Invalidate()
	}
	if !hasAttrID(s, "fcodetoast") {
		t.Fatal("the frame's buttons never came")
	}
	for _, ms := range []int{100, 300, 600} {
		res := do(t, svc, fmt.Sprintf("ftoast%d", ms), Action{Kind: "click"})
		mustOK(t, res)
		want := fmt.Sprintf("Frame toast %d", ms)
		var f *Flash
		for i := range res.Flashed {
			if res.Flashed[i].Text == want {
				f = &res.Flashed[i]
			}
		}
		if f == nil || f.Role != "alert" || f.Ms <= 0 || f.ID == "" || res.Effect != EffectChanged {
			t.Errorf("a %d ms toast in a cross-origin frame: effect %q, flashed %+v, announced %+v, flat %q", ms, res.Effect, res.Flashed, res.Announced, res.Changes.Flat)
		}
	}
	res := do(t, svc, "fcodetoast", Action{Kind: "click"})
	mustOK(t, res)
	if !strings.Contains(flashText(res.Flashed), "alert:Code sent;") {
		t.Errorf("a toast holding a one-time code: flashed %+v", res.Flashed)
	}
	if strings.Contains(fmt.Sprintf("%+v", res), "135790") {
		t.Errorf("a one-time code's text is in the result: %+v", res)
	}
}

// TestOwnToastsLeaveTheirBoxCalm: toasts that go after their actions
// answered change their box while no action runs, three times in a few
// seconds. That is the actions' doing, not a clock's: the next toast in
// that box is still a flash. (A loaded machine answered before each
// toast went, and the fourth was taken for a clock's digits.)
func TestOwnToastsLeaveTheirBoxCalm(t *testing.T) {
	svc, p := openTicking(t, "flash.html")
	for i := range 3 {
		res := do(t, svc, "f600", Action{Kind: "click"})
		mustOK(t, res)
		// Gone while no action runs.
		cdptest.WaitFor(t, p, "document.getElementById('toasts').childElementCount === 0")
		if i == 0 && len(res.Flashed) > 0 {
			t.Logf("the first toast went within its action: %+v", res.Flashed)
		}
	}
	res := do(t, svc, "iconflash", Action{Kind: "click"})
	mustOK(t, res)
	// A loaded machine may read the page while the toast still shows. A
	// restless box would have put that line in the background, not here.
	shown := slices.ContainsFunc(res.Changes.Flat, func(l string) bool { return strings.Contains(l, `+ status "Done: Link copied"`) })
	if !strings.Contains(flashText(res.Flashed), "status:Done: Link copied;") && !shown {
		t.Errorf("after three toasts of its own, the box is taken for a clock: flashed %+v, flat %q", res.Flashed, res.Changes.Flat)
	}
}
