package live_test

import (
	"path/filepath"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestARIAComboboxByKeys drives the WAI-ARIA select-only combobox with
// keys only and checks aria-expanded and the selection in the page.
func TestARIAComboboxByKeys(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "aria-practices")
	base, _ := cdptest.Serve(t, dir)
	svc, p := openService(t, base+"/content/patterns/combobox/examples/combobox-select-only.html", Config{})
	key := func(k string) {
		t.Helper()
		s := snap(t, svc)
		mustOK(t, svc.Do(ctx(t), Action{Kind: "key", ID: byAttrID(t, s, "combo1").ID, Key: k}))
	}
	attr := func(a string) string {
		return evalString(t, p, "document.getElementById('combo1').getAttribute('"+a+"')")
	}
	key("ArrowDown")
	if attr("aria-expanded") != "true" {
		t.Fatalf("ArrowDown did not open the listbox")
	}
	key("ArrowDown")
	key("ArrowDown")
	active := attr("aria-activedescendant")
	if active == "" {
		t.Fatalf("no active option after arrows")
	}
	want := evalString(t, p, "document.getElementById('"+active+"').textContent")
	key("Enter")
	if attr("aria-expanded") != "false" {
		t.Fatalf("Enter did not close the listbox")
	}
	if got := evalString(t, p, "document.getElementById('combo1').textContent"); got != want || want == "Choose a Fruit" {
		t.Fatalf("combobox shows %q, want %q", got, want)
	}
	if v := evalString(t, p, "document.getElementById('"+active+"').getAttribute('aria-selected')"); v != "true" {
		t.Fatalf("chosen option aria-selected=%q", v)
	}
	// The re-snapshot sees the new state too.
	if n := byAttrID(t, snap(t, svc), "combo1"); n.Attrs["aria-expanded"] != "false" {
		t.Fatalf("snapshot has aria-expanded=%q", n.Attrs["aria-expanded"])
	}
	// Open, move, Escape: closes and keeps the value.
	key("ArrowDown")
	key("ArrowDown")
	key("Escape")
	if attr("aria-expanded") != "false" {
		t.Fatalf("Escape did not close the listbox")
	}
	if got := evalString(t, p, "document.getElementById('combo1').textContent"); got != want {
		t.Fatalf("Escape changed the value to %q", got)
	}
}

// TestARIAMenubarByKeys opens and closes a menubar submenu with keys.
func TestARIAMenubarByKeys(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "aria-practices")
	base, _ := cdptest.Serve(t, dir)
	svc, p := openService(t, base+"/content/patterns/menubar/examples/menubar-navigation.html", Config{})
	s := snap(t, svc)
	first := findNode(s, func(n *VirtualNode) bool { return n.Attrs["role"] == "menuitem" && n.Attrs["href"] == "#about" })
	if first == nil {
		t.Fatalf("no About menuitem")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: first.ID}))
	expanded := func(href string) string {
		return evalString(t, p, "document.querySelector('[role=menubar] a[href=\""+href+"\"]').getAttribute('aria-expanded')")
	}
	if expanded("#about") != "true" {
		t.Fatalf("click did not open About")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "key", Key: "Escape"}))
	if expanded("#about") != "false" {
		t.Fatalf("Escape did not close About")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "key", Key: "ArrowRight"}))
	if v := evalString(t, p, "document.activeElement.getAttribute('href')"); v != "#admissions" {
		t.Fatalf("ArrowRight focused %q", v)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "key", Key: "ArrowDown"}))
	if expanded("#admissions") != "true" {
		t.Fatalf("ArrowDown did not open Admissions")
	}
	if v := evalJS(t, p, "!!document.activeElement.closest('[role=menu]')"); v != true {
		t.Fatalf("focus is not in the submenu")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "key", Key: "Escape"}))
	if expanded("#admissions") != "false" {
		t.Fatalf("Escape did not close Admissions")
	}
}
