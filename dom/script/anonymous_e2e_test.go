package script_test

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/live"
	"domscope/dom/script"
)

// TestRecordAnonymousReplaysSameNode clicks every nameless clickable box
// of a page: no role, name or test id. The boxes sit in the document, a
// section, a zero-size wrapper, SVG, a shadow root and a frame. Each is
// recorded as the UI does (AimAt before the click, RecordAimed after). On
// a fresh load a returning visitor's banner shifts every node number. The
// replay must still click the same boxes (the page's own log of clicks).
// A box no query picks on its own is a comment line that says why. It is
// never a node ID, never another box.
func TestRecordAnonymousReplaysSameNode(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/anonymous.html", live.Config{})
	var file bytes.Buffer
	rec := script.NewRecorder(&file)
	var ids []string
	Walk(snap(t, svc).Root, func(n *VirtualNode) {
		if n.NodeType == ElementNode && n.Attrs["onclick"] != "" {
			ids = append(ids, n.ID)
		}
	})
	if len(ids) != 10 {
		t.Fatalf("%d clickable boxes in the snapshot, want 10", len(ids))
	}
	for _, id := range ids {
		s := snap(t, svc)
		a := Action{Kind: KindClick, ID: id}
		aimed := script.AimAt(ctx(t), svc, s, a)
		res := svc.Do(ctx(t), a)
		if !res.Success {
			t.Fatalf("click on %s: %v", id, res.Error)
		}
		if _, ok, err := rec.RecordAimed(s, a, aimed, res, "click on "+id); !ok {
			t.Fatalf("click on %s not recorded: %v", id, err)
		}
	}
	clicked := hits(t, p)
	want := []string{"top-1", "top-2", "sec-1", "sec-2", "wrap", "abs", "svg", "shadow-1", "shadow-2", "frame"}
	if !reflect.DeepEqual(clicked, want) {
		t.Fatalf("the session clicked %q, want %q", clicked, want)
	}
	recorded := file.String()
	t.Logf("recorded:\n%s", recorded)
	if strings.Contains(recorded, "node_") || strings.Contains(recorded, `"id"`) {
		t.Fatalf("the recording names node IDs:\n%s", recorded)
	}
	// Which boxes the recording replays: the steps that are not comments.
	// The zero-size link is hidden from the agent's view, so a comment. Once
	// the build sees its box drawn elsewhere, it is a CSS path.
	var replayed []string
	lines := strings.Split(strings.TrimSuffix(recorded, "\n"), "\n")[1:]
	for i, l := range lines {
		if !strings.HasPrefix(l, "#") {
			replayed = append(replayed, want[i])
			continue
		}
		why := "div generic: it has no accessible name or test id, and it is inside a "
		if want[i] == "abs" {
			why = "a link is hidden (zero-size)"
		}
		if !strings.Contains(l, script.NoTargetComment+": "+why) {
			t.Errorf("step %d (%s) is a comment that does not say why:\n%s", i+1, want[i], l)
		}
		if want[i] != "abs" && i < 7 {
			t.Errorf("step %d (%s) is not replayed, though a CSS path reaches it", i+1, want[i])
		}
	}
	if len(replayed) < 6 || slices.Contains(replayed, "shadow-1") || slices.Contains(replayed, "frame") {
		t.Errorf("the recording replays %q: want the boxes a CSS path reaches, no others", replayed)
	}

	svc2, p2 := openService(t, base+"/anonymous.html", live.Config{})
	if n := evalJS(t, p2, "document.querySelectorAll('#top .box').length"); n != float64(1) {
		t.Fatalf("the fresh load shows %v banners, want 1 (node numbers must differ)", n)
	}
	var out bytes.Buffer
	if err := script.Run(ctx(t), svc2, strings.NewReader(recorded), &out, script.Options{}); err != nil {
		t.Fatalf("replay: %v\n%s", err, out.String())
	}
	if got := hits(t, p2); !reflect.DeepEqual(got, replayed) {
		t.Errorf("the replay clicked %q, want %q\n%s", got, replayed, out.String())
	}
}

// hits is the page's log of which box got each click.
func hits(t *testing.T, p Session) []string {
	t.Helper()
	var out []string
	if v, ok := evalJS(t, p, "window.hits || []").([]any); ok {
		for _, x := range v {
			out = append(out, x.(string))
		}
	}
	return out
}

// TestTargetForPageChecksThePage: a box was inserted before the target
// since the snapshot. A CSS path built from that snapshot picks another
// element. TargetForPage asks the page and does not write it. The
// snapshot alone would.
func TestTargetForPageChecksThePage(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/anonymous.html", live.Config{})
	s := snap(t, svc)
	var first *VirtualNode
	Walk(s.Root, func(n *VirtualNode) {
		if first == nil && n.Attrs["onclick"] == "hit('top-1')" {
			first = n
		}
	})
	q, err := script.TargetForPage(ctx(t), svc, s, first)
	if err != nil || q.CSS != "html > body > main > div:nth-of-type(1)" {
		t.Fatalf("before the page changes: %+v, %v", q, err)
	}
	evalJS(t, p, `document.querySelector('main').prepend(Object.assign(document.createElement('div'), {className: 'box'}))`)
	if q, err := script.TargetFor(s, first); err != nil || q.CSS == "" {
		t.Fatalf("from the snapshot alone: %+v, %v", q, err)
	}
	q, err = script.TargetForPage(ctx(t), svc, s, first)
	if err == nil || !strings.Contains(err.Error(), "its CSS path html > body > main > div:nth-of-type(1) does not pick it alone in the page") {
		t.Errorf("after the page changed: %+v, %v; want the path refused", q, err)
	}
}
