package tui

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// v cycles desktop → tablet → phone → desktop on a real page, and the
// snapshot follows. The responsive page's menu button exists only on the
// phone. The header names the window. P then shows the phone's picture at
// its CSS size.
func TestViewportKeyFollowsSnapshot(t *testing.T) {
	base, _ := cdptest.Serve(t, "../testdata/pages")
	m, svc := liveModel(t, base+"/responsive.html", 140, 44)
	menuShown := func() bool {
		t.Helper()
		var menu *dom.VirtualNode
		dom.Walk(m.doc.snap.Root, func(n *dom.VirtualNode) {
			if n.Attrs["id"] == "menu" {
				menu = n
			}
		})
		if menu == nil {
			t.Fatalf("no #menu in snapshot #%d", m.doc.snap.Seq)
		}
		return menu.Hidden == ""
	}
	header := func() string { return strings.SplitN(plainScreen(m), "\n", 2)[0] }
	if menuShown() || strings.Contains(header(), "▭") {
		t.Fatalf("desktop: the menu button shows, or the header names a window: %s", header())
	}
	steps := []struct {
		device, header string
		menu           bool
	}{
		{"iPad Mini", "▭ iPad Mini 768×1024", false},
		{"iPhone 13", "▭ iPhone 13 390×844", true},
		{"", "", false},
	}
	for _, st := range steps {
		seq := m.doc.snap.Seq
		press(t, m, k('v'))
		if m.doc.snap.Seq == seq {
			t.Fatalf("no new snapshot after v (%s): %s", st.device, m.status.flash)
		}
		if got := svc.Viewport().Device; got != st.device {
			t.Fatalf("v emulates %q, want %q", got, st.device)
		}
		h := header()
		if st.header != "" && !strings.Contains(h, st.header) || st.header == "" && strings.Contains(h, "▭") {
			t.Errorf("%q: header %q", st.device, h)
		}
		if menuShown() != st.menu {
			t.Errorf("%q: menu button shown %v, want %v", st.device, menuShown(), st.menu)
		}
		if st.menu {
			if s := plainScreen(m); !strings.Contains(s, `button "Open menu"`) {
				t.Errorf("the phone's flat view has no menu button:\n%s", s)
			}
			press(t, m, k('P'))
			if s := plainScreen(m); !strings.Contains(s, "Page picture 390×844") {
				t.Errorf("no phone-sized picture:\n%s", s)
			}
			// NO_COLOR: shades; the white page is █, its header and
			// heading darker
			if all := strings.Join(m.pic.lines, "\n"); !strings.Contains(all, "█") || !strings.ContainsAny(all, "▓▒░") {
				t.Errorf("the picture is not drawn: %q", m.pic.lines)
			}
		}
	}
}
