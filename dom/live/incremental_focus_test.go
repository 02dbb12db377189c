package live_test

import (
	"os"
	"path/filepath"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestIncrementalFocusAfterFullCapture: the focus a full capture saw is
// cleared by the first refresh after it, once the focus has moved on.
// Here it is an autofocus field.
func TestIncrementalFocusAfterFullCapture(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><title>focus</title><input id="a" aria-label="A" autofocus><button id="b">B</button>`
	if err := os.WriteFile(filepath.Join(dir, "focus.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	svc, p := openService(t, base+"/focus.html", Config{})
	tw := newTwin(t, svc, p)
	if s := snap(t, svc); byAttrID(t, s, "a").States["focused"] != "true" {
		t.Fatalf("the autofocus field is not focused in the first snapshot: %v", byAttrID(t, s, "a").States)
	}
	tw.do(t, Action{Kind: "key", Key: "Tab"}, "tab to the button")
	s := snap(t, svc)
	if !s.Incremental {
		t.Fatalf("the read after Tab was not incremental: %s", svc.Fallback())
	}
	if byAttrID(t, s, "a").States["focused"] == "true" || byAttrID(t, s, "b").States["focused"] != "true" {
		t.Errorf("after Tab: field %v, button %v", byAttrID(t, s, "a").States, byAttrID(t, s, "b").States)
	}
}
