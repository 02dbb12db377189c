package capture

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/fixture"
)

// TestSensitiveField is the rule, case by case.
func TestSensitiveField(t *testing.T) {
	for _, tc := range []struct {
		tag   string
		attrs map[string]string
		want  bool
	}{
		{"input", map[string]string{"type": "password"}, true},
		{"INPUT", map[string]string{"TYPE": "PASSWORD"}, true},
		{"input", map[string]string{"type": " Password "}, true},
		{"input", map[string]string{"AUTOCOMPLETE": "CC-NUMBER"}, true},
		{"input", map[string]string{"autocomplete": "section-x shipping cc-csc"}, true},
		{"input", map[string]string{"type": "text", "autocomplete": "current-password"}, true},
		{"input", map[string]string{"type": "text", "autocomplete": "new-password"}, true},
		{"input", map[string]string{"autocomplete": "one-time-code"}, true},
		{"textarea", map[string]string{"autocomplete": "cc-number"}, true},
		{"div", map[string]string{"contenteditable": "", "autocomplete": "cc-exp"}, true},
		{"div", map[string]string{"type": "password"}, false}, // type=password means something only on <input>
		{"input", map[string]string{"type": "text", "autocomplete": "username"}, false},
		{"input", map[string]string{"autocomplete": "xcc-number"}, false},
		{"input", map[string]string{"name": "password"}, false},
		{"input", nil, false},
	} {
		if got := dom.SensitiveField(tc.tag, tc.attrs); got != tc.want {
			t.Errorf("SensitiveField(%s, %v) = %v", tc.tag, tc.attrs, got)
		}
	}
}

// TestPrivacy: Build runs on a capture that was not scrubbed, as an old
// file would hold. It keeps every sensitive value out of the tree and
// every output. It marks a filled field with Mask.
func TestPrivacy(t *testing.T) {
	const pw, cc, cvc, cur, otc, ta, ed, empty = "hunter2secret", "4111111111111111", "987", "cur-pw-secret", "otc-secret-55",
		"SECRET-TEXTAREA-6011111111111117", "editable-secret-77", ""
	secrets := []string{pw, cc, cvc, cur, otc, ta, ed}
	field := func(attrs []string, secret string) *fixture.Node {
		n := fixture.El("input", attrs,
			&fixture.Node{Tag: "#shadow-root", Shadow: "user-agent", Kids: []*fixture.Node{fixture.El("div", nil, fixture.Txt(secret).AX("StaticText", secret))}}).AX("textbox", "Field")
		n.Value = secret
		return n
	}
	textarea := fixture.El("textarea", []string{"autocomplete", "CC-NUMBER"}, fixture.Txt(ta).AX("StaticText", ta)).AX("textbox", "Card")
	textarea.Value = ta
	editable := fixture.El("div", []string{"contenteditable", "true", "autocomplete", "cc-csc", "onclick", "x()"}, fixture.Txt(ed))
	root := fixture.Page(
		fixture.El("div", []string{"onclick", "go()"}, // a clickable container named after its text
			fixture.El("form", nil,
				field([]string{"type", "PASSWORD", "value", pw}, pw),
				field([]string{"autocomplete", "billing cc-number", "value", cc}, cc),
				field([]string{"autocomplete", "cc-csc", "value", cvc, "type", "TEXT"}, cvc),
				field([]string{"type", "text", "autocomplete", "current-password"}, cur),
				field([]string{"autocomplete", "Section-A ONE-TIME-CODE"}, otc),
				field([]string{"type", "password", "id", "blank"}, empty),
				textarea, editable,
				fixture.El("input", []string{"id", "plain", "value", "visible-value"}).AX("textbox", "Plain"),
			)),
	)
	s := fixture.MustBuild(t, root, build.Options{})
	o := dom.DefaultOptions()
	o.IncludeValues, o.IncludeHidden = true, true
	sd, d := flatten.Flatten(s, o)
	j, _ := flatten.FormatJSON(sd)
	outs := map[string]string{"json": string(j), "text": flatten.FormatText(sd), "tree": flatten.FormatTree(s, d)}
	masked := 0
	for _, n := range s.ByID {
		var b strings.Builder
		b.WriteString(n.Name + n.Text + n.Role + n.Why)
		for k, v := range n.Attrs {
			b.WriteString(k + v)
		}
		for k, v := range n.States {
			b.WriteString(k + v)
		}
		outs["node "+n.ID] = b.String()
		if n.Sensitive() {
			switch {
			case n.Attrs["id"] == "blank":
				if _, ok := n.States["value"]; ok {
					t.Errorf("an empty sensitive field has a value state: %v", n.States)
				}
			case n.States["value"] != dom.Mask:
				t.Errorf("filled sensitive field %s %v: value state %q, want Mask", n.ID, n.Attrs, n.States["value"])
			default:
				masked++
			}
		}
	}
	if masked != 7 {
		t.Errorf("%d filled sensitive fields masked, want 7", masked)
	}
	for where, s := range outs {
		for _, secret := range secrets {
			if strings.Contains(s, secret) {
				t.Errorf("%s leaks %q", where, secret)
			}
		}
	}
	if !strings.Contains(outs["json"], "visible-value") {
		t.Error("an ordinary field lost its value with IncludeValues")
	}
}

// privacyCapture is a hand-written capture with sensitive values in every
// place Chrome puts them. Its keys are in unusual order (backendNodeId
// last).
const privacyCapture = `{"version":1,"url":"http://t/","title":"t","targetId":"T","targets":[{"targetId":"T","frameId":"F",
"document":{"root":{"nodeType":9,"nodeName":"#document","children":[
 {"nodeType":1,"nodeName":"INPUT","localName":"input","attributes":["id","pw","TYPE","Password","value","pw-attr-secret"],"shadowRoots":[
   {"nodeType":11,"nodeName":"#document-fragment","shadowRootType":"user-agent","children":[
     {"nodeType":1,"nodeName":"DIV","localName":"div","children":[{"nodeType":3,"nodeName":"#text","nodeValue":"pw-live-secret","nodeId":5,"backendNodeId":5}],"nodeId":4,"backendNodeId":4}],"nodeId":3,"backendNodeId":3}],
  "nodeId":2,"backendNodeId":2},
 {"nodeType":1,"nodeName":"TEXTAREA","localName":"textarea","attributes":["autocomplete","shipping CC-NUMBER"],"children":[{"nodeType":3,"nodeName":"#text","nodeValue":"SECRET-TEXTAREA-6011111111111117","nodeId":7,"backendNodeId":7}],"nodeId":6,"backendNodeId":6},
 {"nodeType":1,"nodeName":"P","localName":"p","children":[{"nodeType":3,"nodeName":"#text","nodeValue":"keep this text","nodeId":9,"backendNodeId":9}],"nodeId":8,"backendNodeId":8}
],"nodeId":1,"backendNodeId":1}},
"axTrees":[{"nodes":[
 {"nodeId":"1","role":{"type":"role","value":"RootWebArea"},"name":{"type":"computedString","value":"t"},"childIds":["2","6","8"],"backendDOMNodeId":1},
 {"nodeId":"2","role":{"type":"role","value":"textbox"},"name":{"type":"computedString","value":"Password label"},"value":{"type":"string","value":"••••••••••••••"},"childIds":["4"],"parentId":"1","backendDOMNodeId":2},
 {"nodeId":"4","role":{"type":"role","value":"StaticText"},"name":{"type":"computedString","value":"••••••••••••••"},"childIds":["-10"],"parentId":"2","backendDOMNodeId":5},
 {"nodeId":"-10","role":{"type":"internalRole","value":"InlineTextBox"},"name":{"type":"computedString","value":"••••••••••••••"},"parentId":"4"},
 {"nodeId":"6","role":{"type":"role","value":"textbox"},"name":{"type":"computedString","value":"Card label","sources":[{"type":"contents","value":{"type":"computedString","value":"Card label"}}]},"value":{"type":"string","value":"SECRET-TEXTAREA-6011111111111117"},"childIds":["7"],"parentId":"1","backendDOMNodeId":6},
 {"nodeId":"7","role":{"type":"role","value":"StaticText"},"name":{"type":"computedString","value":"SECRET-TEXTAREA-6011111111111117"},"childIds":["-11","-12"],"parentId":"6","backendDOMNodeId":7},
 {"nodeId":"-11","role":{"type":"internalRole","value":"InlineTextBox"},"name":{"type":"computedString","value":"SECRET-TEXTAREA-"},"parentId":"7"},
 {"nodeId":"-12","role":{"type":"internalRole","value":"InlineTextBox"},"name":{"type":"computedString","value":"6011111111111117"}},
 {"nodeId":"8","role":{"type":"role","value":"paragraph"},"name":{"type":"computedString","value":""},"childIds":["9"],"parentId":"1","backendDOMNodeId":8},
 {"nodeId":"9","role":{"type":"role","value":"StaticText"},"name":{"type":"computedString","value":"keep this text"},"parentId":"8","backendDOMNodeId":9}
]}],
"layout":{"documents":[{"documentURL":0,"frameId":1,"nodes":{
  "nodeValue":[-1,-1,-1,-1,2,-1,3,-1,4],
  "attributes":[[],[5,6,7,8,9,10],[],[],[],[11,12],[],[],[]],
  "inputValue":{"index":[1],"value":[13]},
  "textValue":{"index":[5],"value":[3]},
  "backendNodeId":[1,2,3,4,5,6,7,8,9]},
 "layout":{"nodeIndex":[0,1,4,5,6,8],"bounds":[[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9]],"styles":[[],[],[],[],[],[]],
  "text":[-1,-1,2,-1,3,4]}}],
 "strings":["http://t/","F","pw-live-secret","SECRET-TEXTAREA-6011111111111117","keep this text","id","pw","TYPE","Password","value","pw-attr-secret","autocomplete","shipping CC-NUMBER","pw-typed-secret"]}}]}`

// TestScrubCaptureByNode: Scrub removes every piece of a sensitive
// field's value from every part of a capture. That includes the inline
// text box pieces and the bullets that tell a password's length. Other
// text stays. Build then shows the fields as filled.
func TestScrubCaptureByNode(t *testing.T) {
	var raw dom.RawCapture
	if err := json.Unmarshal([]byte(privacyCapture), &raw); err != nil {
		t.Fatal(err)
	}
	Scrub(&raw)
	b, err := json.Marshal(&raw)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, secret := range []string{"pw-attr-secret", "pw-live-secret", "pw-typed-secret", "SECRET", "TEXTAREA-", "6011111111111117", "•••••"} {
		if strings.Contains(out, secret) {
			t.Errorf("the scrubbed capture holds %q", secret)
		}
	}
	for _, kept := range []string{"keep this text", "Password label", "Card label", "shipping CC-NUMBER"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q was removed but is not secret", kept)
		}
	}
	for _, part := range append([]json.RawMessage{raw.Targets[0].Document, raw.Targets[0].Layout}, raw.Targets[0].AXTrees...) {
		if !json.Valid(part) {
			t.Fatalf("a scrubbed part is not valid JSON: %s", part)
		}
	}
	s, err := build.Build(&raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var fields int
	for _, n := range s.ByID {
		if n.Sensitive() {
			fields++
			if n.States["value"] != dom.Mask {
				t.Errorf("%s: value state %q, want Mask", n.Tag, n.States["value"])
			}
		}
	}
	if fields != 2 {
		t.Errorf("%d sensitive fields in the tree, want 2", fields)
	}
}

// TestScrubCaptureTwice: scrubbing a scrubbed capture (a saved file being
// opened) changes nothing. The fields still show Mask.
func TestScrubCaptureTwice(t *testing.T) {
	var raw dom.RawCapture
	if err := json.Unmarshal([]byte(privacyCapture), &raw); err != nil {
		t.Fatal(err)
	}
	Scrub(&raw)
	once, _ := json.Marshal(&raw)
	Scrub(&raw)
	twice, _ := json.Marshal(&raw)
	if string(once) != string(twice) {
		t.Errorf("a second scrub changed the capture:\n%s\n%s", once, twice)
	}
	if !strings.Contains(string(twice), dom.Mask) {
		t.Error("no Mask left after two scrubs")
	}
}
