package flatten

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/recordings"
)

// TestFormatJSONLinesOnePass: the one-pass writer gives the lines and ids
// the former serialise, indent and re-read gave, and formats only once.
func TestFormatJSONLinesOnePass(t *testing.T) {
	for _, name := range []string{"semantic", "nonsemantic", "shadow", "frames", "hostile", "synthetic-1000"} {
		t.Run(name, func(t *testing.T) {
			s, err := build.Build(recordings.Load(t, name), build.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range []dom.Options{dom.DefaultOptions(), {IncludeBoundingBoxes: true, IncludeHidden: true, IncludeBackendIDs: true}} {
				sd, _ := Flatten(s, opts)
				want, err := formatJSONLinesReread(sd)
				if err != nil {
					t.Fatal(err)
				}
				before := Derivations.Format.Load()
				got, err := FormatJSONLines(sd)
				if err != nil {
					t.Fatal(err)
				}
				if n := Derivations.Format.Load() - before; n != 1 {
					t.Errorf("FormatJSONLines formatted %d times, want once", n)
				}
				if !slices.Equal(got, want) {
					for i := range min(len(got), len(want)) {
						if got[i] != want[i] {
							t.Fatalf("line %d: got %+v, want %+v", i, got[i], want[i])
						}
					}
					t.Fatalf("got %d lines, want %d", len(got), len(want))
				}
			}
		})
	}
	// Edge cases: nothing, no nodes, a nil child, hostile strings.
	for _, sd := range []*dom.SerializedDom{nil, {}, {URL: "u", Nodes: []*dom.SerializedNode{{ID: "node_1", Role: "list", Children: []*dom.SerializedNode{nil, {ID: "node_2", Role: "text", Text: "a\u2028b\u202e<&>\"", Children: []*dom.SerializedNode{}}}}}}} {
		want, err := formatJSONLinesReread(sd)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FormatJSONLines(sd)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%+v:\ngot  %q\nwant %q", sd, got, want)
		}
	}
}

// formatJSONLinesReread is the former FormatJSONLines, kept as the
// reference the one-pass writer must match. It is FormatJSON indented two
// spaces per level for reading, split in lines. Each line inside a node's
// object (its braces included) carries that node's ID. Lines of nested
// children carry the innermost node's ID.
func formatJSONLinesReread(sd *dom.SerializedDom) ([]Line, error) {
	compact, err := FormatJSON(sd)
	if err != nil {
		return nil, err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, compact, "", "  "); err != nil {
		return nil, err
	}
	text := ind.Bytes()
	// Line starts, to find the line of a token from its offset.
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lines := make([]Line, len(starts))
	for i, s := range starts {
		end := len(text)
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		lines[i].Text = string(text[s:end])
	}
	lineAt := func(off int) int {
		lo, hi := 0, len(starts)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if starts[mid] <= off {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	// Walk the tokens: node objects are the elements of "nodes" and
	// "children" arrays; the "id" member names the node.
	type container struct {
		object bool
		key    string // the member that holds this container
		node   bool
		id     string
		start  int    // line of the opening delimiter
		next   string // in an object: the key whose value comes next
		want   bool   // in an object: a key is expected next
	}
	var stack []*container
	dec := json.NewDecoder(bytes.NewReader(text))
	idOf := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].node {
				return stack[i].id
			}
		}
		return ""
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		line := lineAt(int(dec.InputOffset()) - 1)
		var top *container
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, isKey := tok.(string); isKey && top != nil && top.object && top.want {
			top.next, top.want = k, false
			lines[line].ID = idOf()
			continue
		}
		key := ""
		if top != nil && top.object {
			key, top.want = top.next, true
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				c := &container{object: t == '{', key: key, start: line, want: true}
				if top != nil && !top.object {
					c.key = top.key
					c.node = c.object && (top.key == "nodes" || top.key == "children")
				}
				stack = append(stack, c)
				lines[line].ID = idOf()
			default:
				lines[line].ID = idOf()
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].want = true
				}
			}
		case string:
			if top != nil && top.node && key == "id" {
				top.id = dom.NormalizeID(t)
				for l := top.start; l <= line; l++ {
					lines[l].ID = top.id
				}
			}
			lines[line].ID = idOf()
		default:
			lines[line].ID = idOf()
		}
	}
	return lines, nil
}

// BenchmarkFormatJSONLines compares the one-pass writer with the former
// serialise, indent and re-read.
func BenchmarkFormatJSONLines(b *testing.B) {
	s, err := build.Build(recordings.Load(b, "synthetic-1000"), build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	sd, _ := Flatten(s, dom.DefaultOptions())
	for _, c := range []struct {
		name string
		f    func(*dom.SerializedDom) ([]Line, error)
	}{{"one-pass", FormatJSONLines}, {"reread", formatJSONLinesReread}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.f(sd); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
