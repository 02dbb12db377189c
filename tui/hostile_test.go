package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
)

func widthOf(s string) int { return ansi.StringWidth(s) }

const evil = "\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[31m\u009b1m\x07\x08\x00\r\n\u202e"

// hostilePage carries escape sequences and control characters in its
// title, URL, names, text and attributes. It has wide and combining
// characters too.
func hostilePage() *dom.Snapshot {
	f := newFixture("Title" + evil + "end")
	f.s.URL = "http://127.0.0.1/" + evil
	html := f.add(f.s.Root, el("html"))
	body := f.add(html, el("body", "class", "a"+evil+"b"))
	b := f.add(body, sem(el("button", "id", "x"+evil, "data-x", evil), "button", "Click"+evil+"me"))
	b.States = map[string]string{"pressed" + evil: evil}
	f.add(b, &dom.VirtualNode{NodeType: dom.TextNode, Tag: "#text", Text: "text" + evil})
	f.add(body, sem(el("h1"), "heading", "日本語のタイトル e\u0301\u0301 👩‍👩‍👧 wide"))
	f.add(body, el("my"+evil+"tag"))
	return f.s
}

// bad reports a rune from a page that must not reach the terminal. Our
// own styling (SGR) is removed first.
func bad(s string) (rune, bool) {
	for _, r := range ansi.Strip(s) {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
			return r, true
		}
	}
	return 0, false
}

func TestHostileStringsRenderInert(t *testing.T) {
	a := newTestActor(hostilePage())
	m := started(t, a, 120, 40)
	check := func(what string) {
		t.Helper()
		out := m.render()
		if !utf8.ValidString(out) {
			t.Fatalf("%s: invalid UTF-8", what)
		}
		if r, ok := bad(out); ok {
			t.Fatalf("%s: control %U reached the screen", what, r)
		}
		// the only escape sequences left are our own SGR styling
		plain := ansi.Strip(out)
		for _, s := range []string{"]52;", "[2J", "\x1b"} {
			if strings.Contains(plain, s) && s == "\x1b" {
				t.Fatalf("%s: ESC survived", what)
			}
		}
		if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1b[2J") {
			t.Fatalf("%s: an OSC or erase sequence reached the screen", what)
		}
	}
	check("tree")
	for i := 0; i < 8; i++ {
		press(t, m, downKey)
		check("moving")
	}
	press(t, m, tabKey, k('f'))
	check("json")
	press(t, m, k('d'))
	check("diff")
	press(t, m, escKey, k('?'))
	check("help")
	if v := m.View(); strings.ContainsAny(v.WindowTitle, "\x1b\x07\x00") {
		t.Errorf("window title carries controls: %q", v.WindowTitle)
	}
	m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "dialog", Dialog: &dom.DialogInfo{Type: "alert" + evil, Message: evil + "hi" + evil}}}})
	check("dialog")
	press(t, m, escKey, k('t'))
	check("prompt")
	m.Update(tea.PasteMsg{Content: evil})
	check("pasted prompt")
}
