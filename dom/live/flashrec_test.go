package live_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestFlashTextFromTheRecorder: a toast inserted with more than one
// child comes bare in Chrome's events. When the ask for its children
// comes after it went (as on a loaded machine; here never), the page's
// recorder still gives its text, in the page and in a cross-origin
// frame, and a one-time code in it still never shows.
func TestFlashTextFromTheRecorder(t *testing.T) {
	SetAskCutOff(true)
	t.Cleanup(func() { SetAskCutOff(false) })

	svc, _ := openTicking(t, "flash.html")
	res := do(t, svc, "iconflash", Action{Kind: "click"})
	mustOK(t, res)
	if !strings.Contains(flashText(res.Flashed), "status:Done: Link copied;") {
		t.Errorf("a bare 100 ms toast: flashed %+v, announced %+v, flat %q", res.Flashed, res.Announced, res.Changes.Flat)
	}

	base, _ := cdptest.Serve(t, happenedPages)
	fsvc, p := openService(t, base+"/frame.html", Config{QuietWindow: 1500 * time.Millisecond, SettleTimeout: 10 * time.Second})
	cdptest.WaitFor(t, p, "document.readyState === 'complete'")
	for i := 0; i < 50 && !hasAttrID(snap(t, fsvc), "fcodetoast"); i++ {
		time.Sleep(100 * time.Millisecond)
		fsvc.Invalidate()
	}
	res = do(t, fsvc, "fcodetoast", Action{Kind: "click"})
	mustOK(t, res)
	if !strings.Contains(flashText(res.Flashed), "alert:Code sent;") {
		t.Errorf("a bare toast in a cross-origin frame: flashed %+v, flat %q", res.Flashed, res.Changes.Flat)
	}
	if strings.Contains(fmt.Sprintf("%+v", res), "135790") {
		t.Errorf("a one-time code's text is in the result: %+v", res)
	}
}
