package flatten

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"domscope/dom"
)

// Line is one line of a flattened format with the ID of the node it
// belongs to ("" for lines of no node), so a view can map lines to nodes
// without reading the text back.
type Line struct {
	ID   string
	Text string
}

// FormatTextLines is FormatText split in lines, each with its node's ID
// (text lines carry the ID of their #text node). Joining the texts with
// "\n" after each gives FormatText's output.
func FormatTextLines(sd *dom.SerializedDom) []Line {
	if sd == nil {
		return nil
	}
	var out []Line
	var b strings.Builder
	eachTextNode(sd, func(n *dom.SerializedNode, depth int) {
		b.Reset()
		writeTextLine(&b, n, depth)
		out = append(out, Line{ID: n.ID, Text: strings.TrimSuffix(b.String(), "\n")})
	})
	return out
}

// FormatJSONLines is FormatJSON indented two spaces per level for reading,
// split in lines; each line inside a node's object (its braces included)
// carries that node's ID, the innermost node's for nested children.
func FormatJSONLines(sd *dom.SerializedDom) ([]Line, error) {
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
