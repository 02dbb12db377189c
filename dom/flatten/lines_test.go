package flatten_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// TestFormatLines checks that the line forms of both formats give exactly
// the formatted output and that every line names the node it belongs to.
func TestFormatLines(t *testing.T) {
	for _, name := range []string{"semantic", "nonsemantic", "shadow", "frames", "hostile", "synthetic-1000"} {
		t.Run(name, func(t *testing.T) {
			s, err := build.Build(recordings.Load(t, name), build.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sd, _ := flatten.Flatten(s, dom.DefaultOptions())

			var text strings.Builder
			for _, l := range flatten.FormatTextLines(sd) {
				text.WriteString(l.Text + "\n")
				if short, _, ok := strings.Cut(strings.TrimLeft(l.Text, " "), "] "); ok && strings.HasPrefix(short, "[") {
					if want := dom.NormalizeID(short[1:]); l.ID != want {
						t.Fatalf("text line %q: id %q, want %q", l.Text, l.ID, want)
					}
				}
				if l.ID == "" || s.Node(l.ID) == nil {
					t.Fatalf("text line %q: id %q is not a node of the snapshot", l.Text, l.ID)
				}
			}
			if got, want := text.String(), flatten.FormatText(sd); got != want {
				t.Fatalf("text lines differ from FormatText")
			}

			lines, err := flatten.FormatJSONLines(sd)
			if err != nil {
				t.Fatal(err)
			}
			compact, _ := flatten.FormatJSON(sd)
			var ind bytes.Buffer
			_ = json.Indent(&ind, compact, "", "  ")
			var joined []string
			ids := 0
			for i, l := range lines {
				joined = append(joined, l.Text)
				tl := strings.TrimSpace(l.Text)
				if id, ok := strings.CutPrefix(tl, `"id": "`); ok && strings.Contains(lines[i-1].Text, "{") {
					id = strings.TrimSuffix(strings.TrimSuffix(id, ","), `"`)
					if l.ID != id || lines[i-1].ID != id {
						t.Fatalf("line %d %q: id %q (the brace line: %q), want %q", i, l.Text, l.ID, lines[i-1].ID, id)
					}
					ids++
				}
				if strings.HasPrefix(tl, `"frames"`) && l.ID != "" {
					t.Fatalf("line %d %q belongs to no node, got %q", i, l.Text, l.ID)
				}
			}
			if strings.Join(joined, "\n") != ind.String() {
				t.Fatalf("json lines differ from the indented FormatJSON")
			}
			if ids == 0 {
				t.Fatalf("no node ids in the json lines")
			}
		})
	}
}
