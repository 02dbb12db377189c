package live_test

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

func TestTypeReplacesValue(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	cases := []struct{ id, text, js, want string }{
		{"name", "new value", "document.getElementById('name').value", "new value"},
		{"name", "", "document.getElementById('name').value", ""},
		{"notes", "a\nb", "document.getElementById('notes').value", "a\nb"},
		{"editor", "fresh", "document.getElementById('editor').innerText", "fresh"},
		{"when", "2024-02-29", "document.getElementById('when').value", "2024-02-29"},
		{"name", "emoji 😀 and <b>tags</b> & \"quotes\"", "document.getElementById('name').value", "emoji 😀 and <b>tags</b> & \"quotes\""},
	}
	for _, c := range cases {
		mustOK(t, do(t, svc, c.id, Action{Kind: "type", Text: c.text}))
		if got := evalString(t, p, c.js); strings.TrimRight(got, "\n") != c.want {
			t.Errorf("type %q into #%s: page holds %q", c.text, c.id, got)
		}
	}
	if v := evalJS(t, p, "window.inputs > 0"); v != true {
		t.Errorf("no input events reached the page")
	}
}

func TestTypeMismatchIsReported(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", Config{})
	res := do(t, svc, "short", Action{Kind: "type", Text: "abcdef"})
	mustCode(t, res, ValidationError)
	if !strings.Contains(res.Error.Message, `"abcdef"`) || !strings.Contains(res.Error.Message, `"abc"`) {
		t.Fatalf("mismatch message lacks both values: %s", res.Error.Message)
	}
	// A password's value never appears in a message.
	res = do(t, svc, "pw", Action{Kind: "type", Text: "hunter2"})
	mustOK(t, res)
	// A checkbox takes no text.
	mustCode(t, do(t, svc, "agree", Action{Kind: "type", Text: "x"}), NotInteractable)
}

func TestTypeEnterSubmits(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "keys", Action{Kind: "type", Text: "hi\n"}))
	log := evalString(t, p, "window.keylog.join(' ')")
	if !strings.Contains(log, "keydown:Enter:Enter:13:0000") {
		t.Fatalf("Enter not pressed after the text: %s", log)
	}
}

func TestSelectOption(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "fruit", Action{Kind: "select", Value: "Banana"}))
	if v := evalJS(t, p, "window.changed"); v != "b" {
		t.Fatalf("change by label: %v", v)
	}
	mustOK(t, do(t, svc, "fruit", Action{Kind: "select", Value: "a"}))
	if v := evalJS(t, p, "window.changed"); v != "a" {
		t.Fatalf("change by value: %v", v)
	}
	res := do(t, svc, "fruit", Action{Kind: "select", Value: "Durian"})
	mustCode(t, res, ValidationError)
	if !strings.Contains(res.Error.Message, "Banana") {
		t.Errorf("no options listed: %s", res.Error.Message)
	}
	mustCode(t, do(t, svc, "fruit", Action{Kind: "select", Value: "Cherry"}), NotInteractable)
	mustCode(t, do(t, svc, "inc", Action{Kind: "select", Value: "x"}), ValidationError)
}

func TestScroll(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "", Action{Kind: "scroll", DY: 400}))
	y1 := evalJS(t, p, "scrollY").(float64)
	if y1 < 100 {
		t.Fatalf("wheel scroll moved the page to %v", y1)
	}
	mustOK(t, do(t, svc, "", Action{Kind: "scroll", DY: -10000}))
	mustOK(t, do(t, svc, "farbtn", Action{Kind: "scroll"}))
	if v := evalJS(t, p, "(() => { const r = document.getElementById('farbtn').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight })()"); v != true {
		t.Fatalf("scroll to a node did not bring it into view")
	}
}

// TestTypeIntoNonField: text into something that takes none (a button, a
// heading, a focusable box) fails with NOT_INTERACTABLE naming the node.
// It leaves the page as it was: no focus, no click, no value changed.
// Custom fields that hand the focus to an inner <input> still take text.
func TestTypeIntoNonField(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/typing.html", Config{})
	state := `JSON.stringify([window.clicks || 0, window.focused || 0, document.getElementById('btn').textContent,
		document.getElementById('field').value, document.getElementById('boxed').value])`
	before := evalString(t, p, state)
	res := do(t, svc, "btn", Action{Kind: "type", Text: "hello\n"})
	mustCode(t, res, NotInteractable)
	for _, want := range []string{"<button>", `"Send"`, "takes no text", "click it"} {
		if !strings.Contains(res.Error.Message, want) {
			t.Errorf("message lacks %q: %s", want, res.Error.Message)
		}
	}
	if !res.Error.Recoverable {
		t.Errorf("NOT_INTERACTABLE should be recoverable")
	}
	if after := evalString(t, p, state); after != before {
		t.Fatalf("typing into a button changed the page: %s -> %s", before, after)
	}
	if v := evalString(t, p, "document.activeElement.localName"); v != "body" {
		t.Errorf("the refused type moved the focus to %s", v)
	}
	// A focusable box with an input in it: focusing it does not reach the input.
	res = do(t, svc, "box", Action{Kind: "type", Text: "x"})
	mustCode(t, res, NotInteractable)
	if !strings.Contains(res.Error.Message, "<div>") || !strings.Contains(res.Error.Message, "did not focus a text field") {
		t.Errorf("box message: %s", res.Error.Message)
	}
	if after := evalString(t, p, state); after != before {
		t.Fatalf("typing into the box changed the page: %s -> %s", before, after)
	}
	// Typing into a <select> picks the option with that label.
	mustOK(t, do(t, svc, "size", Action{Kind: "type", Text: "Large"}))
	if v := evalJS(t, p, "window.size"); v != "l" {
		t.Errorf("type into a select: chose %v", v)
	}
	// Custom elements delegating focus to a shadow <input>, open and closed.
	for _, id := range []string{"open", "closed"} {
		mustOK(t, do(t, svc, id, Action{Kind: "type", Text: "via " + id}))
		if v := evalString(t, p, "document.getElementById('"+id+"').value"); v != "via "+id {
			t.Errorf("type into <%s-field>: inner input holds %q", id, v)
		}
	}
}
