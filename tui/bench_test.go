package tui

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
)

// bigPage builds a synthetic tree of about n nodes, like a long feed. It
// has sections of list items with links, buttons and text, a few levels
// deep.
func bigPage(n int) *dom.Snapshot {
	f := newFixture("Big page")
	html := f.add(f.s.Root, el("html"))
	body := f.add(html, el("body"))
	for i := 0; len(f.s.ByID) < n; i++ {
		sec := f.add(body, sem(el("section", "class", "card item"), "region", fmt.Sprintf("Section %d", i)))
		ul := f.add(sec, el("ul"))
		for j := 0; j < 20 && len(f.s.ByID) < n; j++ {
			li := f.add(ul, sem(el("li"), "listitem", ""))
			a := f.add(li, sem(el("a", "href", fmt.Sprintf("/item/%d/%d", i, j)), "link", fmt.Sprintf("Item %d.%d with a longer title", i, j)))
			f.add(a, &dom.VirtualNode{NodeType: dom.TextNode, Tag: "#text", Text: fmt.Sprintf("Item %d.%d with a longer title", i, j)})
			b := f.add(li, el("div", "class", "btn like", "onclick", "like()"))
			b.Tier, b.Why, b.Name = dom.NonSemantic, "heuristic:onclick", "Like"
		}
	}
	return f.s
}

func benchModel(b *testing.B, n int) *Model { return benchModelT(b, n) }

func benchModelT(b testing.TB, n int) *Model {
	b.Helper()
	s := bigPage(n)
	// Folds off: the flat pane holds every line, the heaviest case.
	m := newModel(context.Background(), Config{Actor: newTestActor(s), Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow },
		FlattenOff: map[string]bool{flatten.FlatFoldRepeats: true}})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m.setSnapshot(s, false)
	if len(m.panes.tree.rows) < n/2 {
		b.Fatalf("only %d rows", len(m.panes.tree.rows))
	}
	return m
}

// BenchmarkView renders a full 200×60 frame of a 50k-node tree with the
// cursor in the middle. Colour is on, and the row cache warm as in use.
func BenchmarkView50k(b *testing.B) {
	m := benchModel(b, 50000)
	m.panes.tree.cursor = len(m.panes.tree.rows) / 2
	m.panes.tree.scrollToCursor()
	m.syncFromTree()
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkCursorMove50k is one down-arrow: Update plus the frame it causes.
func BenchmarkCursorMove50k(b *testing.B) {
	m := benchModel(b, 50000)
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	up := tea.KeyPressMsg{Code: tea.KeyUp}
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		k := down
		if (i/500)%2 == 1 {
			k = up
		}
		i++
		m.Update(k)
		m.View()
	}
}

// BenchmarkPageDown50k scrolls a screen at a time (every row is new: cold cache).
func BenchmarkPageDown50k(b *testing.B) {
	m := benchModel(b, 50000)
	pg := tea.KeyPressMsg{Code: tea.KeyPgDown}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if m.panes.tree.cursor >= len(m.panes.tree.rows)-1 {
			m.panes.tree.Top()
		}
		m.Update(pg)
		m.View()
	}
}

// BenchmarkExpandAll50k rebuilds the visible rows of the whole tree.
func BenchmarkExpandAll50k(b *testing.B) {
	m := benchModel(b, 50000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.panes.tree.SetAll(true)
	}
}

// BenchmarkViewHelp50k renders a frame with the help drawn over a 50k-node tree.
func BenchmarkViewHelp50k(b *testing.B) {
	m := benchModel(b, 50000)
	m.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkFormatKey100k is the f key at about 100k nodes: what Update
// (and so input) waits for. The formatting itself runs in a command.
// BenchmarkFormatCmd100k is that command's cost, off the Update path.
func BenchmarkFormatKey100k(b *testing.B) {
	m := benchModel(b, 100000)
	f := tea.KeyPressMsg{Code: 'f', Text: "f"}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Update(f)
	}
}

func BenchmarkFormatCmd100k(b *testing.B) {
	m := benchModel(b, 100000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := formatFlat(m.doc.view, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDerive50k is the flat view a new snapshot gets in its command,
// with the UI's options (folds, the modal first, covered marks) and with
// the defaults the UI had before: what the agent's view costs the UI.
func BenchmarkDerive50k(b *testing.B) { benchDerive(b, bigPage(50000)) }

// BenchmarkDeriveRecorded10k is BenchmarkDerive50k on the recorded
// synthetic-10000 page, where little repeats enough to fold.
func BenchmarkDeriveRecorded10k(b *testing.B) { benchDerive(b, recorded(b, "synthetic-10000")) }

func benchDerive(b *testing.B, s *dom.Snapshot) {
	for _, c := range []struct {
		name  string
		agent bool
	}{{"defaults", false}, {"agent-view", true}} {
		b.Run(c.name, func(b *testing.B) {
			o := dom.DefaultOptions()
			o.Fold, o.ModalScope, o.Covered = c.agent, c.agent, c.agent
			in := deriveIn{actor: newTestActor(s), opts: o}
			b.ReportAllocs()
			for b.Loop() {
				in.derive(s, true)
			}
		})
	}
}
