package mcp_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/mcp"
)

// TestFoldedCards: 300 near-identical cards cost at most 2,000 tokens;
// the fold line says how to see them all, and that call shows card 250
// with its button. The password's value shows nowhere.
func TestFoldedCards(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/cards.html")
	view := f.ok("dom_snapshot", nil)
	if n := flatten.CountTokens(view); n > 2000 {
		t.Errorf("the first view of 300 cards costs %d tokens", n)
	}
	m := regexp.MustCompile(`… 297 more listitem like \[\d+\] \("Camera model 4" … "Camera model 300"; dom_snapshot selector \[(\d+)\] for all\)`).FindStringSubmatch(view)
	if m == nil {
		t.Fatalf("no fold line:\n%s", view)
	}
	all := f.ok("dom_snapshot", map[string]any{"selector": "[" + m[1] + "]"})
	if !regexp.MustCompile(`h3 "Camera model 250"\n.*\n\s*\[\d+\] button "Add to cart"`).MatchString(all) {
		t.Errorf("the selector on the list does not show card 250 and its button")
	}
	if strings.Count(all, "listitem") != 300 {
		t.Errorf("the selector shows %d cards", strings.Count(all, "listitem"))
	}
	unfolded := f.ok("dom_snapshot", map[string]any{"folds": false})
	if strings.Contains(unfolded, "more listitem") || !strings.Contains(unfolded, "Camera model 299") {
		t.Errorf("folds:false still folds")
	}
	// ids are the same with folding on or off
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") && !strings.Contains(unfolded, l) {
			t.Errorf("line %q of the folded view is not in the unfolded one", l)
		}
	}
	inter := f.ok("dom_snapshot", map[string]any{"interactive": true})
	if !strings.Contains(inter, `textbox "Password"`) || !strings.Contains(inter, "297 more listitem") || flatten.CountTokens(inter) >= flatten.CountTokens(view) {
		t.Errorf("interactive view (%d tokens):\n%s", flatten.CountTokens(inter), inter)
	}
	f.noSecret("sekrit-pass-42")
}

// TestModalFirst: with an aria-modal dialog open over 150 links the view
// starts with the dialog and says what lies behind in one line; it costs
// at most 0.3 of the whole view; behind:true shows it all.
func TestModalFirst(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/modal-aria.html")
	view := f.ok("dom_snapshot", nil)
	lines := strings.Split(strings.TrimSpace(view), "\n")
	if len(lines) < 2 || !regexp.MustCompile(`^\[\d+\] dialog "Settings"$`).MatchString(lines[1]) {
		t.Fatalf("the view does not start with the dialog:\n%s", view)
	}
	if !regexp.MustCompile(`\n… 150 links, 1 button, .* behind the modal dialog \[\d+\] "Settings"; dom_snapshot behind:true shows them\n$`).MatchString(view) {
		t.Errorf("no line for what lies behind:\n%s", view)
	}
	whole := f.ok("dom_snapshot", map[string]any{"behind": true, "folds": false})
	if !strings.Contains(whole, `link "Link number 150"`) {
		t.Fatalf("behind:true does not show the links")
	}
	if a, b := flatten.CountTokens(view), flatten.CountTokens(whole); float64(a) > 0.3*float64(b) {
		t.Errorf("the modal view costs %d tokens, the whole one %d", a, b)
	}
}

// TestModalOpenedSaid: an action that opens a modal <dialog> says so,
// and the one that closes it too.
func TestModalOpenedSaid(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/modal-dialog.html")
	view := f.ok("dom_snapshot", nil)
	if strings.Contains(view, "behind the modal") {
		t.Fatalf("a modal with none open:\n%s", view)
	}
	out := f.ok("dom_click", map[string]any{"id": idOf(t, view, `button "Delete order"`)})
	if !regexp.MustCompile(`modal: dialog \[\d+\] "Delete the order\?" opened`).MatchString(out) {
		t.Errorf("opening the dialog is not said:\n%s", out)
	}
	view = f.ok("dom_snapshot", nil)
	if !strings.Contains(view, "43 links, 41 buttons") || !strings.Contains(strings.Split(view, "\n")[1], `dialog "Delete the order?"`) {
		t.Errorf("the view with the dialog open:\n%s", view)
	}
	out = f.ok("dom_click", map[string]any{"id": idOf(t, view, `button "Keep"`)})
	if !regexp.MustCompile(`modal: dialog \[\d+\] "Delete the order\?" closed`).MatchString(out) {
		t.Errorf("closing the dialog is not said:\n%s", out)
	}
}

// TestVirtualListRow500: the virtual inbox says it scrolls and holds
// about 10,000 rows; an agent reaches row 500 in two calls.
func TestVirtualListRow500(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/virtual.html")
	view := f.ok("dom_snapshot", nil)
	if !regexp.MustCompile(`\[\d+\] list "Inbox" scroll 0% ↓ ~10000 rows\n`).MatchString(view) {
		t.Fatalf("the inbox does not say where it stands:\n%s", view)
	}
	// the answer lists the rows that came into view; a page slow to
	// draw them shows them to the next look (the third call)
	out := f.ok("dom_scroll", map[string]any{"id": idOf(t, view, `list "Inbox"`), "to": 500})
	view = f.ok("dom_snapshot", map[string]any{"folds": false})
	if !strings.Contains(out, `link "Message 500"`) && !strings.Contains(view, `link "Message 500"`) {
		t.Errorf("scrolling to row 500 does not show it:\n%s\n%s", out, view)
	}
	if !regexp.MustCompile(`list "Inbox" scroll [1-9]\d?% ↑↓`).MatchString(view) {
		t.Errorf("after the scroll the inbox does not say it moved:\n%s", view)
	}
	out = f.ok("dom_scroll", map[string]any{"id": idOf(t, view, `list "Inbox"`), "to": "bottom"})
	if !strings.Contains(out, "Message 10000") && !strings.Contains(f.ok("dom_snapshot", map[string]any{"folds": false}), "Message 10000") {
		t.Errorf("scrolling to the bottom does not show the last row:\n%s", out)
	}
}

// TestFeedGrows: scrolling an infinite feed to its end says the page grew.
func TestFeedGrows(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/feed.html")
	view := f.ok("dom_snapshot", nil)
	if !regexp.MustCompile(`^page: "Feed" \S+ scroll 0% ↓\n`).MatchString(view) {
		t.Fatalf("the page line does not say the page scrolls:\n%s", view)
	}
	out := f.ok("dom_scroll", map[string]any{"to": "bottom"})
	if !regexp.MustCompile(`grew: \d+ → \d+ px \(more loaded\)`).MatchString(out) {
		t.Errorf("scrolling the feed to its end does not say it grew:\n%s", out)
	}
}

// TestScrollers: nested and sideways scroll containers say where they
// stand; a clipped box that does not scroll says nothing.
func TestScrollers(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/scrollers.html")
	view := f.ok("dom_snapshot", nil)
	for _, re := range []string{`\[\d+\] region "Outer" scroll 0% ↓\n`, `\n +\[\d+\] div "Inner" scroll 0% ↓\n`, `\[\d+\] toolbar "Strip" scroll ←→\n`} {
		if !regexp.MustCompile(re).MatchString(view) {
			t.Errorf("no %s in:\n%s", re, view)
		}
	}
	if strings.Count(view, " scroll ") != 4 { // the page, outer, inner, strip
		t.Errorf("%d scroll marks, want 4:\n%s", strings.Count(view, " scroll "), view)
	}
	js := f.ok("dom_snapshot", map[string]any{"format": "json", "selector": "#inner"})
	if !regexp.MustCompile(`"scroll":\{"top":0,"height":600,"client":1[345]\d,"more_above":false,"more_below":true\}`).MatchString(js) {
		t.Errorf("json scroll of the inner box:\n%s", js)
	}
}

// TestCovered: the link under a sticky header, the button under a cookie
// banner and the one under a transparent overlay are marked covered;
// a free button, one with a corner covered and one under an overlay
// clicks go through (pointer-events: none) are not.
func TestCovered(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/covered.html")
	view := f.ok("dom_snapshot", nil)
	covered := map[string]bool{}
	for _, l := range strings.Split(view, "\n") {
		if m := regexp.MustCompile(`^\s*\[\d+\] \w+ "([^"]+)".* covered by \[\d+\]$`).FindStringSubmatch(l); m != nil {
			covered[m[1]] = true
		}
	}
	for name, want := range map[string]bool{"Back to the top": true, "Under cookie": true, "Under glass": true,
		"Free button": false, "Corner covered": false, "Under ghost": false, "Accept": false} {
		if covered[name] != want {
			t.Errorf("%q covered: %v, want %v", name, covered[name], want)
		}
	}
	if len(covered) != 3 {
		t.Errorf("%d nodes marked covered, want 3:\n%s", len(covered), view)
	}
	cookie := idOf(t, view, `dialog "Cookies"`)
	if !strings.Contains(view, `button "Under cookie" covered by [`+cookie+`]`) {
		t.Errorf("the cookie banner is not named as what covers its button:\n%s", view)
	}
	js := f.ok("dom_snapshot", map[string]any{"format": "json", "selector": "#under-cookie"})
	if !strings.Contains(js, `"covered_by":"node_`+cookie+`"`) {
		t.Errorf("json has no covered_by:\n%s", js)
	}
}

// TestFind: dom_find answers with the card and its button's id in a few
// tokens, says how many chunks it left out, and shows no secret.
func TestFind(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/cards.html")
	out := f.ok("dom_find", map[string]any{"text": "Camera model 250"})
	if !regexp.MustCompile(`(?s)^page: "Cameras" .*\n# [^\n]*\n\[\d+\] listitem\n \[\d+\] h3 "Camera model 250"\n.*\n \[\d+\] button "Add to cart"\n`).MatchString(out) {
		t.Errorf("dom_find does not start with card 250 and its button:\n%s", out)
	}
	if !regexp.MustCompile(`\n… \d+ more chunks left out \(\d+ of them match\)`).MatchString(out) || flatten.CountTokens(out) > 300 {
		t.Errorf("dom_find (%d tokens):\n%s", flatten.CountTokens(out), out)
	}
	if q := f.ok("dom_snapshot", map[string]any{"query": "Password"}); !strings.Contains(q, `textbox "Password"`) {
		t.Errorf("query Password:\n%s", q)
	}
	f.noSecret("sekrit-pass-42")
}

// TestCompact: format compact is seed 003's payload: i is the id of
// [N], covered controls have occ, the page says where it stands, and a
// password's value shows nowhere.
func TestCompact(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/covered.html")
	view := f.ok("dom_snapshot", nil)
	c := f.ok("dom_snapshot", map[string]any{"format": "compact"})
	id := idOf(t, view, `button "Under cookie"`)
	if !regexp.MustCompile(`\{"i":"`+id+`","r":"button","n":"Under cookie","xy":\[\d+,\d+\],"box":\[\d+,\d+,\d+,\d+\],"occ":true,"by":"\d+"\}`).MatchString(c) ||
		!strings.Contains(c, `"viewport":[0,0,`) || !strings.HasPrefix(c, `{"url":"`) {
		t.Errorf("compact:\n%s", c)
	}
	g := setup(t, mcp.ViewDiff, "look/cards.html")
	cc := g.ok("dom_snapshot", map[string]any{"format": "compact"})
	if !strings.Contains(cc, `"r":"textbox","n":"Password"`) || !strings.Contains(cc, `"scroll_position":{"depth":"0%","h":true}`) {
		t.Errorf("compact of the cards:\n%.600s", cc)
	}
	g.noSecret("sekrit-pass-42")
}

// TestLookTypedSecret: a password typed by the agent shows in none of
// the views issue 33 adds: compact, the query view, dom_find, the
// interactive view, and dom_scroll's answers.
func TestLookTypedSecret(t *testing.T) {
	const secret = "typed-Secret-77"
	f := setup(t, mcp.ViewDiff, "look/cards.html")
	view := f.ok("dom_snapshot", nil)
	f.ok("dom_type", map[string]any{"id": idOf(t, view, `textbox "Password"`), "text": secret})
	c := f.ok("dom_snapshot", map[string]any{"format": "compact"})
	if !strings.Contains(c, `"n":"Password"`) {
		t.Errorf("compact has no password field:\n%.400s", c)
	}
	if q := f.ok("dom_snapshot", map[string]any{"query": "Password"}); !strings.Contains(q, `textbox "Password"`) {
		t.Errorf("query Password:\n%s", q)
	}
	if q := f.ok("dom_find", map[string]any{"text": "Password field"}); !strings.Contains(q, `textbox "Password"`) {
		t.Errorf("dom_find Password:\n%s", q)
	}
	f.ok("dom_snapshot", map[string]any{"interactive": true})
	if out := f.ok("dom_scroll", map[string]any{"to": "bottom"}); !strings.Contains(out, "at the end") {
		t.Errorf("scrolling to the bottom does not say it is at the end:\n%s", out)
	}
	f.ok("dom_scroll", map[string]any{"to": "top"})
	f.noSecret(secret)
}

// TestLoadAll: load_all scrolls an infinite feed until it stops growing
// (100 posts), says so, and the view holds the last post.
func TestLoadAll(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/feed.html")
	if view := f.ok("dom_snapshot", map[string]any{"folds": false}); strings.Contains(view, "Post 21") {
		t.Fatalf("the feed holds more than its first 20 posts before load_all:\n%s", view)
	}
	out := f.ok("dom_snapshot", map[string]any{"load_all": true, "folds": false})
	if !regexp.MustCompile(`^load_all: \d+ rounds, the page grew \d+ → \d+ px\n`).MatchString(out) || !strings.Contains(out, `"Post 100"`) {
		t.Errorf("load_all did not load the whole feed:\n%.600s", out)
	}
	if !regexp.MustCompile(`\npage: "Feed" \S+ scroll 0% ↓\n`).MatchString(out) {
		t.Errorf("load_all did not scroll back to the top:\n%.300s", out)
	}
}

// TestMinVisible: with offscreen:false a button a third of which shows
// at the bottom of the viewport is in the view; with minVisible 0.66
// (the 2/3 rule) it is counted out.
func TestMinVisible(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "look/minvisible.html")
	on := f.ok("dom_snapshot", map[string]any{"offscreen": false})
	if !strings.Contains(on, `button "Third"`) || !strings.Contains(on, `button "Whole"`) {
		t.Fatalf("offscreen:false does not show the button a third in view:\n%s", on)
	}
	two := f.ok("dom_snapshot", map[string]any{"offscreen": false, "minVisible": 0.66})
	if strings.Contains(two, `button "Third"`) || !strings.Contains(two, `button "Whole"`) || !strings.Contains(two, "outside the viewport") {
		t.Errorf("minVisible 0.66 keeps the button a third in view:\n%s", two)
	}
	if out := f.fails("dom_snapshot", map[string]any{"minVisible": 2}, dom.ValidationError); !strings.Contains(out, "minVisible") {
		t.Errorf("minVisible 2: %s", out)
	}
}

// TestCompactRecentEvents: the compact format says in recent_events
// what flashed after the last action answered, and stays one JSON
// object.
func TestCompactRecentEvents(t *testing.T) {
	f, v := ticking(t)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Save"`)})
	if strings.Contains(out, "Invalid email") {
		t.Skipf("the machine is so slow the alert came within the click: %s", out)
	}
	cdptest.WaitFor(t, f.page, "window.saved === true")
	c := f.ok("dom_snapshot", map[string]any{"format": "compact"})
	var got flatten.Compact
	if err := json.Unmarshal([]byte(c), &got); err != nil {
		t.Fatalf("compact is not one JSON object: %v\n%.300s", err, c)
	}
	found := false
	for _, e := range got.RecentEvents {
		found = found || e.Type == "flashed" && e.R == "alert" && e.Text == "Invalid email address" && e.Ms > 0
	}
	if !found {
		t.Errorf("recent_events does not say the alert flashed: %+v", got.RecentEvents)
	}
}
