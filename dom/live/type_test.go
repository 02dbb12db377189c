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
