package flatten_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/internal/fixture"
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
func randomTree(seed uint64, size int) *fixture.Node {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	str := func() string {
		if r.IntN(3) == 0 {
			return pick(hostile)
		}
		return pick([]string{"Save", "Open menu", "x", "Search", "42"})
	}
	root := fixture.Page()
	body := root.Kids[0].Kids[0]
	nodes := []*fixture.Node{body}
	for i := 0; i < size; i++ {
		parent := nodes[r.IntN(len(nodes))]
		if r.IntN(4) == 0 {
			parent = nodes[len(nodes)-1] // grow deep too
		}
		if parent.Tag == "#text" {
			continue
		}
		tag := pick(fuzzTags)
		var n *fixture.Node
		switch tag {
		case "#text":
			n = fixture.Txt(str())
		case "#shadow-root":
			n = &fixture.Node{Tag: tag, Shadow: pick([]string{"open", "closed", "user-agent"})}
		default:
			n = fixture.El(tag, nil)
			for j := r.IntN(4); j > 0; j-- {
				n.Attrs = append(n.Attrs, pick(fuzzAttrs), str())
			}
		}
		if tag != "#shadow-root" {
			n.Role = pick(fuzzRoles)
			n.Name = str()
			if r.IntN(5) == 0 {
				n.Props = map[string]string{pick([]string{"checked", "expanded", "disabled", "level", "focused"}): pick([]string{"true", "false", "mixed", "2", str()})}
			}
			if r.IntN(6) == 0 {
				n.Value = str()
			}
		}
		switch r.IntN(8) {
		case 0:
			n.Boxless = true
		case 1:
			n.Box = &dom.Rect{X: r.Float64() * 2000, Y: r.Float64() * 5000, W: float64(r.IntN(3)), H: r.Float64() * 50}
		case 2:
			n.Style(pick([]string{"visibility", "opacity", "cursor", "display"}), pick([]string{"hidden", "0", "pointer", "none", str()}))
		}
		n.Listener = r.IntN(10) == 0
		parent.Kids = append(parent.Kids, n)
		nodes = append(nodes, n)
	}
	return root
}

// checkOutputs runs everything on a capture and checks the invariants that
// must hold for any input. secrets are markers inside the values of
// sensitive fields: no node and no output may hold one.
func checkOutputs(t *testing.T, raw *dom.RawCapture, stableIDs bool, secrets []string) {
	s, err := build.Build(raw, build.Options{})
	if err != nil {
		return // a clear error is fine; a panic is not
	}
	leak := func(where, out string) {
		for _, sec := range secrets {
			if strings.Contains(out, sec) {
				t.Fatalf("%s holds the sensitive value marked %q", where, sec)
			}
		}
	}
	if len(secrets) > 0 {
		for _, n := range s.ByID {
			b, _ := json.Marshal([]any{n.Name, n.Text, n.Attrs, n.States, n.Role, n.Why})
			leak("node "+n.ID, string(b))
		}
		leak("title", s.Title)
	}
	for _, opts := range []dom.Options{dom.DefaultOptions(), {IncludeHidden: true, IncludeValues: true, IncludeBoundingBoxes: true, IncludeBackendIDs: true, MaxDepth: 3, MaxInteractive: 2}} {
		sd, d := flatten.Flatten(s, opts)
		if d.Len() != len(s.ByID) {
			t.Fatalf("%d decisions for %d nodes", d.Len(), len(s.ByID))
		}
		j, err := flatten.FormatJSON(sd)
		if err != nil {
			t.Fatalf("json: %v", err)
		}
		text := flatten.FormatText(sd)
		leak("json", string(j))
		leak("text", text)
		if strings.Count(text, "\n") != sd.NodeCount {
			t.Fatalf("text has %d lines for %d nodes:\n%s", strings.Count(text, "\n"), sd.NodeCount, text)
		}
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if strings.ContainsAny(line, "\x1b\r\x00\u2028") {
				t.Fatalf("raw control character in %q", line)
			}
		}
		tree := flatten.FormatTree(s, d)
		leak("tree", tree)
		if strings.Count(tree, "\n") != len(s.ByID) {
			t.Fatalf("tree has %d lines for %d nodes", strings.Count(tree, "\n"), len(s.ByID))
		}
		flatten.CountTokens(text)
	}
	if next, err := build.Build(raw, build.Options{Prev: s}); err == nil && stableIDs {
		if dd := flatten.Diff(s, next); !dd.Empty() {
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
		root := randomTree(seed, int(size%400))
		var secrets []string
		if doc == nil {
			secrets = addSensitive(root, seed)
		}
		raw := fixture.CaptureOf(root)
		if doc != nil {
			raw.Targets[0].Document = json.RawMessage(doc)
			raw.Targets = append(raw.Targets, dom.RawTarget{TargetID: "OOP", FrameID: "OOP", Document: doc, Layout: doc, AXTrees: []json.RawMessage{doc}})
		}
		checkOutputs(t, raw, doc == nil, secrets)
		checkScrubbed(t, raw, secrets)
	})
}

// sensitiveVariants are attribute sets that make an element a sensitive
// field (the first two only on an <input>).
var sensitiveVariants = [][]string{
	{"type", "password"}, {"TYPE", "PaSsWoRd"},
	{"autocomplete", "section-x shipping CC-CSC"}, {"autocomplete", "current-password"},
	{"AUTOCOMPLETE", "NEW-PASSWORD"}, {"autocomplete", "one-time-code"}, {"autocomplete", "cc-exp"},
	{"autocomplete", "billing cc-number"},
}

// addSensitive turns some elements of a random tree into sensitive fields
// holding hostile values. It puts them in every place a capture can hold
// one. Those are the value attribute, the AX value, text in a user-agent
// shadow root or as a child, and the AX names of those texts. It returns the marker inside each
// value (the rest of the value is hostile text a format may escape).
func addSensitive(root *fixture.Node, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed^0x5eed, seed))
	var secrets []string
	stack := []*fixture.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, n.Kids...)
		if n.Tag == "#text" || n.Tag == "#shadow-root" || n.Tag == "#document" || n.Tag == "html" || n.Tag == "body" || r.IntN(6) != 0 {
			continue
		}
		marker := fmt.Sprintf("PRIV%dX%d", seed, len(secrets))
		secrets = append(secrets, marker)
		value := hostile[r.IntN(len(hostile))] + marker + hostile[r.IntN(len(hostile))]
		v := sensitiveVariants[r.IntN(len(sensitiveVariants))]
		if n.Tag != "input" && (v[1] == "password" || v[1] == "PaSsWoRd") {
			v = sensitiveVariants[2]
		}
		n.Attrs = append(n.Attrs, v[0], v[1])
		if r.IntN(2) == 0 {
			n.Attrs = append(n.Attrs, "value", value)
		}
		if n.Role == "" || n.Role == "-" {
			n.Role = "textbox"
		}
		n.Value = value
		text := fixture.Txt(value).AX("StaticText", value)
		if r.IntN(2) == 0 {
			n.Kids = append(n.Kids, &fixture.Node{Tag: "#shadow-root", Shadow: "user-agent", Kids: []*fixture.Node{fixture.El("div", nil, text).AX("generic", value)}})
		} else {
			n.Kids = append(n.Kids, text)
		}
	}
	return secrets
}

// checkScrubbed: after capture.Scrub, the saved capture (raw data
// included) and a build of it hold no marker.
func checkScrubbed(t *testing.T, raw *dom.RawCapture, secrets []string) {
	b, err := json.Marshal(raw)
	if err != nil {
		return
	}
	var c dom.RawCapture
	if json.Unmarshal(b, &c) != nil {
		return
	}
	capture.Scrub(&c)
	s, err := build.Build(&c, build.Options{})
	if err != nil {
		return
	}
	saved, err := export.NewSavedCapture(s, dom.Options{IncludeHidden: true, IncludeValues: true}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := saved.Write(&out); err != nil {
		t.Fatal(err)
	}
	for _, sec := range secrets {
		if strings.Contains(out.String(), sec) {
			i := strings.Index(out.String(), sec)
			t.Fatalf("the scrubbed export holds the sensitive value marked %q: …%s…", sec, out.String()[max(0, i-200):i+len(sec)])
		}
	}
}

// TestRandomTrees runs the fuzz body over many seeds in a normal test run.
func TestRandomTrees(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		checkOutputs(t, fixture.CaptureOf(randomTree(seed, 150)), true, nil)
		if seed%4 != 0 {
			continue
		}
		root := randomTree(seed, 150)
		secrets := addSensitive(root, seed)
		raw := fixture.CaptureOf(root)
		checkOutputs(t, raw, true, secrets)
		checkScrubbed(t, raw, secrets)
	}
}
