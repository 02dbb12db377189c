package dom

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// hostile are page strings that try to break formats and terminals.
var hostile = []string{
	"", " ", "\n", "line1\nline2", "\r\n[99] button \"fake\"", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07",
	"\u202eevil", "\x00nul", "\"quoted\"", "back\\slash", "[12]", "node_1", strings.Repeat("long ", 400),
	"\xff\xfe invalid utf8", "emoji 🎉", "tab\tsep", "\u2028sep", "<script>alert(1)</script>",
}

var fuzzTags = []string{"div", "span", "button", "a", "input", "form", "ul", "li", "p", "h2", "iframe",
	"details", "summary", "select", "option", "script", "style", "label", "table", "td", "#text", "#shadow-root"}

var fuzzRoles = []string{"", "", "-", "generic", "button", "link", "textbox", "heading", "list", "listitem",
	"form", "group", "StaticText", "paragraph", "navigation", "dialog", "checkbox"}

var fuzzAttrs = []string{"onclick", "tabindex", "role", "aria-hidden", "hidden", "inert", "class", "href",
	"data-testid", "contenteditable", "type", "value", "autocomplete", "aria-label", "open", "style"}

// randomTree makes a CDP-shaped tree from a seed: random tags, attributes,
// AX roles, boxes and styles, hostile strings everywhere.
func randomTree(seed uint64, size int) *tn {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	str := func() string {
		if r.IntN(3) == 0 {
			return pick(hostile)
		}
		return pick([]string{"Save", "Open menu", "x", "Search", "42"})
	}
	root := page()
	body := root.kids[0].kids[0]
	nodes := []*tn{body}
	for i := 0; i < size; i++ {
		parent := nodes[r.IntN(len(nodes))]
		if r.IntN(4) == 0 {
			parent = nodes[len(nodes)-1] // grow deep too
		}
		if parent.tag == "#text" {
			continue
		}
		tag := pick(fuzzTags)
		var n *tn
		switch tag {
		case "#text":
			n = txt(str())
		case "#shadow-root":
			n = &tn{tag: tag, shadow: pick([]string{"open", "closed", "user-agent"})}
		default:
			n = el(tag, nil)
			for j := r.IntN(4); j > 0; j-- {
				n.attrs = append(n.attrs, pick(fuzzAttrs), str())
			}
		}
		if tag != "#shadow-root" {
			n.role = pick(fuzzRoles)
			n.name = str()
			if r.IntN(5) == 0 {
				n.props = map[string]string{pick([]string{"checked", "expanded", "disabled", "level", "focused"}): pick([]string{"true", "false", "mixed", "2", str()})}
			}
			if r.IntN(6) == 0 {
				n.value = str()
			}
		}
		switch r.IntN(8) {
		case 0:
			n.nobox = true
		case 1:
			n.box = &Rect{X: r.Float64() * 2000, Y: r.Float64() * 5000, W: float64(r.IntN(3)), H: r.Float64() * 50}
		case 2:
			n.style(pick([]string{"visibility", "opacity", "cursor", "display"}), pick([]string{"hidden", "0", "pointer", "none", str()}))
		}
		n.listener = r.IntN(10) == 0
		parent.kids = append(parent.kids, n)
		nodes = append(nodes, n)
	}
	return root
}

// checkOutputs runs everything on a capture and checks the invariants that
// must hold for any input.
func checkOutputs(t *testing.T, raw *RawCapture, stableIDs bool) {
	s, err := Build(raw, BuildOptions{})
	if err != nil {
		return // a clear error is fine; a panic is not
	}
	for _, opts := range []Options{DefaultOptions(), {IncludeHidden: true, IncludeValues: true, IncludeBoundingBoxes: true, IncludeBackendIDs: true, MaxDepth: 3, MaxInteractive: 2}} {
		sd, d := Flatten(s, opts)
		if len(d) != len(s.ByID) {
			t.Fatalf("%d decisions for %d nodes", len(d), len(s.ByID))
		}
		if _, err := FormatJSON(sd); err != nil {
			t.Fatalf("json: %v", err)
		}
		text := FormatText(sd)
		if strings.Count(text, "\n") != countSerialized(sd.Nodes) {
			t.Fatalf("text has %d lines for %d nodes:\n%s", strings.Count(text, "\n"), countSerialized(sd.Nodes), text)
		}
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if strings.ContainsAny(line, "\x1b\r\x00\u2028") {
				t.Fatalf("raw control character in %q", line)
			}
		}
		tree := FormatTree(s, d)
		if strings.Count(tree, "\n") != len(s.ByID) {
			t.Fatalf("tree has %d lines for %d nodes", strings.Count(tree, "\n"), len(s.ByID))
		}
		CountTokens(text)
	}
	if next, err := Build(raw, BuildOptions{Prev: s}); err == nil && stableIDs {
		if dd := Diff(s, next); !dd.Empty() {
			t.Fatalf("rebuild differs: %+v", dd)
		}
	}
}

func FuzzBuildFlatten(f *testing.F) {
	for seed := uint64(0); seed < 8; seed++ {
		f.Add(seed, uint16(40), []byte(nil))
	}
	// raw bytes as the document: garbage must give an error, not a panic
	f.Add(uint64(1), uint16(0), []byte(`{"root":{"nodeType":1,"children":[{"nodeType":3,"nodeValue":"\u001b[2J"}]}}`))
	f.Add(uint64(2), uint16(0), []byte(`{"root":{"nodeType":9,"children":[[[]]]}}`))
	f.Add(uint64(3), uint16(0), []byte(`[1,2,3]`))
	f.Add(uint64(4), uint16(0), []byte(`{"root":{"nodeType":1,"shadowRoots":[{"nodeType":11,"shadowRootType":"closed"}],"contentDocument":null}}`))
	f.Fuzz(func(t *testing.T, seed uint64, size uint16, doc []byte) {
		raw := captureOf(randomTree(seed, int(size%400)))
		if doc != nil {
			raw.Targets[0].Document = json.RawMessage(doc)
			raw.Targets = append(raw.Targets, RawTarget{TargetID: "OOP", FrameID: "OOP", Document: doc, Layout: doc, AXTrees: []json.RawMessage{doc}})
		}
		checkOutputs(t, raw, doc == nil)
	})
}

// TestRandomTrees runs the fuzz body over many seeds in a normal test run.
func TestRandomTrees(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		checkOutputs(t, captureOf(randomTree(seed, 150)), true)
	}
}
