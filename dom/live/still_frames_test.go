package live_test

import (
	"net/url"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom/internal/domtest"
)

// Pages with frames the page cannot read, and controls whose state no
// value shows. Each read must equal a full capture of the same state.

var stillFrames = domtest.Testdata("pages", "still-frames")

// TestStillSameSiteFrame: a frame of another port runs in the page's
// process, where the page cannot read it. It hosts an out-of-process
// frame, so the counts of both kinds agree: still reads must not.
func TestStillSameSiteFrame(t *testing.T) {
	u1, l1 := cdptest.Serve(t, stillFrames)
	u2, _ := cdptest.Serve(t, stillFrames)
	x := u2 + "/x.html?c=" + url.QueryEscape(l1+"/show.html?show=child")
	sp := openStill(t, u1+"/top.html?x="+url.QueryEscape(x))
	cdptest.WaitFor(t, sp.tw.page, "window.xLoaded === true")
	for _, step := range []string{"loaded", "refreshed", "at rest"} {
		sp.read(t, step)
	}
	for _, msg := range []string{"check", "rule"} {
		evalJS(t, sp.tw.page, `document.querySelector("#x").contentWindow.postMessage("`+msg+`", "*"), true`)
		cdptest.WaitFor(t, sp.tw.page, `window.reply === "did `+msg+`"`)
		sp.read(t, "in the frame: "+msg)
	}
}

// TestStillPagePasswordInFrame: the page passes its password to an
// out-of-process frame, which shows it. Only a refresh reads the page's
// value to redact it there.
func TestStillPagePasswordInFrame(t *testing.T) {
	const pw = "hunter22secret"
	u1, l1 := cdptest.Serve(t, stillFrames)
	sp := openStill(t, u1+"/top.html?x="+url.QueryEscape(l1+"/show2.html"))
	cdptest.WaitFor(t, sp.tw.page, "window.xLoaded === true")
	evalJS(t, sp.tw.page, `document.querySelector("#pw").value = "`+pw+`", true`)
	evalJS(t, sp.tw.page, `document.querySelector("#x").contentWindow.postMessage(document.querySelector("#pw").value, "*"), true`)
	cdptest.WaitFor(t, sp.tw.page, `window.reply === "shown"`)
	for _, step := range []string{"loaded", "refreshed", "at rest", "at rest again"} {
		sp.read(t, step, pw)
	}
}

// TestStillControlStates: an unfocused box made indeterminate, a field
// made invalid. No value changes, and no DOM event comes.
func TestStillControlStates(t *testing.T) {
	u1, _ := cdptest.Serve(t, stillFrames)
	sp := openStill(t, u1+"/boxes.html")
	for _, step := range []string{"loaded", "refreshed", "at rest"} {
		sp.read(t, step)
	}
	evalJS(t, sp.tw.page, `document.querySelector("#c2").indeterminate = true, true`)
	sp.read(t, "made mixed")
	sp.read(t, "made mixed, at rest")
	evalJS(t, sp.tw.page, `document.querySelector("#n").setCustomValidity("bad"), true`)
	sp.read(t, "made invalid")
}

// TestStillURLInText: a text that is a URL, and a relative link, bring
// credentials later. A capture hides them.
func TestStillURLInText(t *testing.T) {
	u1, _ := cdptest.Serve(t, stillFrames)
	sp := openStill(t, u1+"/boxes.html")
	sp.read(t, "loaded")
	sp.read(t, "refreshed")
	evalJS(t, sp.tw.page, `document.body.appendChild(document.createElement("p")).textContent = "https://bob:pa55word99@example.com/x?token=texttok1234567", true`)
	sp.read(t, "a text that is a URL", "texttok1234567", "pa55word99")
	evalJS(t, sp.tw.page, `const a = document.body.appendChild(document.createElement("a")); a.href = "/reset?token=reltok98765"; a.textContent = "Your code reltok98765"; true`)
	s, err := sp.svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	for k, out := range outputs(t, s) {
		if strings.Contains(out, "reltok98765") {
			t.Errorf("a relative link: its token reached the %s output", k)
		}
	}
}

// TestStillShadowFrame: a same-origin frame inside a shadow root.
func TestStillShadowFrame(t *testing.T) {
	u1, _ := cdptest.Serve(t, stillFrames)
	sp := openStill(t, u1+"/shadow.html")
	cdptest.WaitFor(t, sp.tw.page, "window.inLoaded === true")
	for _, step := range []string{"loaded", "refreshed", "at rest"} {
		sp.read(t, step)
	}
	frame := `document.querySelector("#host").shadowRoot.querySelector("iframe").contentDocument`
	evalJS(t, sp.tw.page, frame+`.querySelector("#c").checked = true, true`)
	sp.read(t, "a box checked in the frame")
	evalJS(t, sp.tw.page, frame+`.styleSheets[0].insertRule("#gone { display: none }", 0), true`)
	sp.read(t, "a rule added in the frame")
}
