package live_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	. "domscope/dom/live"
)

// fieldSecrets are the values fields.html puts into its sensitive fields.
var fieldSecrets = []string{"PwSecret-4242", "987654"}

// flatBoth flattens s with the defaults and returns the text format and
// the json format decoded, with each serialized node by id.
func flatBoth(t *testing.T, s *Snapshot) (string, map[string]*SerializedNode) {
	t.Helper()
	sd, _ := flatten.Flatten(s, DefaultOptions())
	text := flatten.FormatText(sd)
	out, err := flatten.FormatJSON(sd)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range fieldSecrets {
		if strings.Contains(text, secret) || strings.Contains(string(out), secret) {
			t.Fatalf("a sensitive field's value %q is in the output:\n%s\n%s", secret, text, out)
		}
	}
	var back SerializedDom
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	byID := map[string]*SerializedNode{}
	var add func(l []*SerializedNode)
	add = func(l []*SerializedNode) {
		for _, n := range l {
			byID[n.ID] = n
			add(n.Children)
		}
	}
	add(back.Nodes)
	return text, byID
}

// lineOf is the text-format line of the node with attribute id attrID.
func lineOf(t *testing.T, s *Snapshot, text, attrID string) string {
	t.Helper()
	prefix := "[" + strings.TrimPrefix(byAttrID(t, s, attrID).ID, "node_") + "] "
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), prefix) {
			return strings.TrimLeft(l, " ")
		}
	}
	t.Fatalf("no line for #%s in:\n%s", attrID, text)
	return ""
}

// TestFieldValuesInBothFormats types into a search box, chooses an option,
// ticks a checkbox, expands a disclosure and presses a toggle through the
// service. The text and json formats must show each field's value, the
// selected option and the states, and never a secret.
func TestFieldValuesInBothFormats(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/fields.html", Config{})

	s := snap(t, svc)
	text, nodes := flatBoth(t, s)
	for id, want := range map[string]string{
		"q":      `searchbox "Search"`,
		"pick":   `combobox "Pick": One`,
		"agree":  `checkbox "I agree" unchecked`,
		"toggle": `button "Show more" collapsed`,
		"bold":   `button "Bold" unpressed`,
		"qty":    `spinbutton "Quantity": 3`,
		"vol":    `slider "Volume": 7`,
		"city":   `textbox "City": Paris`,
		"empty":  `textbox "Empty" placeholder="nothing yet"`,
	} {
		if l := lineOf(t, s, text, id); !strings.HasSuffix(l, "] "+want) {
			t.Errorf("before: #%s reads %q, want %q", id, l, want)
		}
	}
	if n := nodes[byAttrID(t, s, "q").ID]; n.Value != "" {
		t.Errorf("before: the empty search box has value %q", n.Value)
	}

	mustOK(t, do(t, svc, "q", Action{Kind: "type", Text: "typed value"}))
	mustOK(t, do(t, svc, "pick", Action{Kind: "select", Value: "Two"}))
	mustOK(t, do(t, svc, "agree", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "toggle", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "bold", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "notes", Action{Kind: "type", Text: "line one\nline two"}))
	mustOK(t, do(t, svc, "city", Action{Kind: "type", Text: ""}))
	long := strings.Repeat("long ", 100)
	mustOK(t, do(t, svc, "empty", Action{Kind: "type", Text: long}))
	// the page's own state, so a wrong output is not blamed on the actions
	if v := evalString(t, p, "[q.value, pick.value, String(agree.checked), toggle.getAttribute('aria-expanded'), city.value].join('|')"); v != "typed value|Two|true|true|" {
		t.Fatalf("the page holds %q", v)
	}

	s = snap(t, svc)
	text, nodes = flatBoth(t, s)
	for id, want := range map[string]string{
		"q":      `searchbox "Search": typed value`,
		"pick":   `combobox "Pick": Two`,
		"agree":  `checkbox "I agree" checked`,
		"toggle": `button "Show more" expanded`,
		"bold":   `button "Bold" pressed`,
		"notes":  `textbox "Notes": line one\nline two`,
		"city":   `textbox "City"`, // cleared: not the value it was served with
	} {
		if l := lineOf(t, s, text, id); !strings.HasSuffix(l, "] "+want) {
			t.Errorf("after: #%s reads %q, want %q", id, l, want)
		}
	}
	if !strings.Contains(text, `option "Blue" selected`) || strings.Contains(text, `option "Red" selected`) {
		t.Errorf("the multiple select's options are not marked as selected:\n%s", text)
	}
	for id, want := range map[string]SerializedNode{
		"q":      {Value: "typed value"},
		"pick":   {Value: "Two", Expanded: "false"},
		"agree":  {Checked: "true"},
		"toggle": {Expanded: "true"},
		"bold":   {Pressed: "true"},
		"notes":  {Value: "line one\nline two"},
		"city":   {},
	} {
		n := nodes[byAttrID(t, s, id).ID]
		if n == nil || n.Value != want.Value || n.Checked != want.Checked || n.Expanded != want.Expanded || n.Pressed != want.Pressed {
			t.Errorf("json: #%s is %+v, want value %q checked %q expanded %q pressed %q", id, n, want.Value, want.Checked, want.Expanded, want.Pressed)
		}
	}
	if v := nodes[byAttrID(t, s, "empty").ID].Value; utf8.RuneCountInString(v) != MaxNameLen || !strings.HasSuffix(v, "…") || !strings.HasPrefix(long, strings.TrimSuffix(v, "…")) {
		t.Errorf("a long value is not cut at %d characters: %d %q", MaxNameLen, utf8.RuneCountInString(v), v)
	}
	// a sensitive field shows at most the mask, never its value
	for _, id := range []string{"pw", "otp"} {
		if v := nodes[byAttrID(t, s, id).ID].Value; v != "" && v != Mask {
			t.Errorf("#%s shows %q", id, v)
		}
	}

	// The same capture without its AX trees: the values come from
	// DOMSnapshot (live input and textarea values, selected options).
	capt, err := s.Capture()
	if err != nil {
		t.Fatal(err)
	}
	raw := *capt
	raw.Targets = append([]RawTarget(nil), raw.Targets...)
	for i := range raw.Targets {
		raw.Targets[i].AXTrees = nil
	}
	noAX, err := build.Build(&raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, nodes = flatBoth(t, noAX)
	for id, want := range map[string]string{"q": "typed value", "pick": "Two", "notes": "line one\nline two", "qty": "3", "city": ""} {
		if n := nodes[byAttrID(t, noAX, id).ID]; n == nil || n.Value != want {
			t.Errorf("without AX: #%s is %+v, want value %q", id, n, want)
		}
	}
	for _, id := range []string{"pw", "otp"} {
		if v := nodes[byAttrID(t, noAX, id).ID].Value; v != "" && v != Mask {
			t.Errorf("without AX: #%s shows %q", id, v)
		}
	}
}
