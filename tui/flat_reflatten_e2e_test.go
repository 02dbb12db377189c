package tui

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/screenshot"
)

// The flat view on screen keeps no flattened tree. What read it shows and
// copies the same, from the tree made again in a command: the node count
// in the flat pane's title, the JSON copy, the json format and the
// picture's marks (made once per view and screenshot).
func TestFlatViewFeaturesFlattenAgain(t *testing.T) {
	base, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "readability"))
	p := cdptest.Page(t, base+"/wikipedia-2/source.html")
	svc := live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	m := newModel(context.Background(), Config{Actor: svc, NoColor: true, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	settle(t, m, m.refresh(false, "first snapshot"))
	if m.doc.view == nil {
		t.Fatal("no flat view after the first snapshot")
	}
	sd, _ := flatten.Flatten(m.doc.snap, m.doc.view.Opts) // with the look the view read
	if want := commas(sd.NodeCount) + " nodes"; sd.NodeCount < 1000 || !strings.Contains(plainScreen(m), want) {
		t.Errorf("the flat pane's title lacks %q:\n%s", want, plainScreen(m))
	}
	wantJSON, err := flatten.FormatJSON(sd)
	if err != nil {
		t.Fatal(err)
	}

	// copy as JSON: flattened again and formatted in the command
	m.panes.flat.json = true
	before := workDone()
	cmd := m.copyWhat(copyFlat)
	if workDone() != before {
		t.Fatal("copying the JSON view flattened on the UI loop")
	}
	var copied *copyReadyMsg
	for _, msg := range runCmd(cmd, 30*time.Second) {
		if c, ok := msg.(copyReadyMsg); ok {
			copied = &c
		}
	}
	if copied == nil || copied.err != nil {
		t.Fatalf("copying the JSON view gave %+v", copied)
	}
	if copied.text != string(wantJSON) {
		t.Fatalf("the JSON copy is not the flat view's JSON (%d bytes, want %d)", len(copied.text), len(wantJSON))
	}
	m.panes.flat.json = false

	// f switches the pane to json: the lines and tokens of that tree
	press(t, m, k('f'))
	wantLines, err := flatten.FormatJSONLines(sd)
	if err != nil {
		t.Fatal(err)
	}
	if !m.panes.flat.json || len(m.panes.flat.lines) != len(wantLines) {
		t.Fatalf("json %v: %d lines, want %d", m.panes.flat.json, len(m.panes.flat.lines), len(wantLines))
	}
	for i, l := range wantLines {
		if m.panes.flat.lines[i] != cleanIndented(l.Text) || m.panes.flat.ids[i] != l.ID {
			t.Fatalf("json line %d: %q (%s), want %q (%s)", i, m.panes.flat.lines[i], m.panes.flat.ids[i], l.Text, l.ID)
		}
	}
	if got, want := m.panes.flat.tokens, flatten.CountTokens(string(wantJSON)); got != want {
		t.Errorf("json tokens %d, want %d", got, want)
	}

	// the picture's marks: those of that tree, made once in a command
	shot, err := svc.Screenshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m.pic.shot, m.pic.marks = shot, true
	want := screenshot.Marks(m.doc.snap, sd, shot)
	for round := range 2 {
		before := workDone()
		cmd := m.drawPicture(m.pictureWant())
		if workDone() != before {
			t.Fatal("drawing the picture flattened on the UI loop")
		}
		var drawn *pictureDrawnMsg
		for _, msg := range runCmd(cmd, 30*time.Second) {
			if d, ok := msg.(pictureDrawnMsg); ok {
				drawn = &d
			}
		}
		if drawn == nil || drawn.err != nil {
			t.Fatalf("round %d: the picture was not drawn", round)
		}
		if round == 1 {
			if drawn.marks != nil {
				t.Error("the marks were made again for the same view and screenshot")
			}
			break
		}
		if drawn.marks == nil || !reflect.DeepEqual(drawn.marks.marks, want) || len(want) == 0 {
			t.Fatalf("the picture's marks are not those of the flat view's tree")
		}
		m.Update(*drawn)
		m.pic.key = picKey{} // draw again
	}
}
