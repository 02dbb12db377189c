package live_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
	"domscope/dom/query"
)

// twin is a second CDP session on the service's tab. Full captures taken
// through it leave the service's own session alone, and so its node ids,
// which the live model follows.
type twin struct {
	svc  *Service
	page *cdpconn.Page
	self *cdpconn.Page
	// incremental counts the snapshots that were incremental, full the rest.
	incremental, full int
	// incMs and fullMs add up the incremental reads' times and those of
	// the full captures beside them (checkChurn).
	incMs, fullMs float64
}

func newTwin(t *testing.T, svc *Service, p *cdpconn.Page) *twin {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30_000_000_000)
	defer cancel()
	other, err := cdptest.Browser(t).AttachPage(c, p.TargetID())
	if err != nil {
		t.Fatalf("second session: %v", err)
	}
	t.Cleanup(func() { _ = other.Detach() })
	return &twin{svc: svc, page: other, self: p}
}

var timestampRE = regexp.MustCompile(`"timestamp":"[^"]*"`)

// outputs are what a user or an agent gets from a snapshot.
func outputs(t *testing.T, s *Snapshot) map[string]string {
	t.Helper()
	sd, d := flatten.Flatten(s, DefaultOptions())
	js, err := flatten.FormatJSON(sd)
	if err != nil {
		t.Fatal(err)
	}
	all := DefaultOptions()
	all.IncludeHidden, all.IncludeBoundingBoxes, all.IncludeValues = true, true, true
	sa, _ := flatten.Flatten(s, all)
	ja, err := flatten.FormatJSON(sa)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"text": flatten.FormatText(sd),
		"json": timestampRE.ReplaceAllString(string(js), `"timestamp":""`),
		"tree": flatten.FormatTree(s, d),
		// every node with its bounds and value: bounds are in no
		// default output, but an agent that asks for them gets them
		"json with bounds": timestampRE.ReplaceAllString(string(ja), `"timestamp":""`),
	}
}

// check compares the service's current snapshot with a full capture of
// the same page taken beside it, in every format. step names the moment.
func (tw *twin) check(t *testing.T, step string) {
	t.Helper()
	inc := tw.svc.Current()
	if inc == nil {
		var err error
		if inc, err = tw.svc.Snapshot(ctx(t), false); err != nil {
			t.Fatalf("%s: snapshot: %v", step, err)
		}
	}
	if inc.Incremental {
		tw.incremental++
	} else {
		tw.full++
		if why := tw.svc.Fallback(); why != "" {
			t.Logf("%s: full capture: %s", step, why)
		}
	}
	full, err := capture.Take(ctx(t), tw.page, build.Options{Prev: inc})
	if err != nil {
		t.Fatalf("%s: full capture: %v", step, err)
	}
	a, b := outputs(t, inc), outputs(t, full)
	// the scroll and covered marks a view reads (issue 33): the same
	// call on either snapshot gives the same marks
	il, err := tw.svc.LookIn(ctx(t), inc, true)
	if err != nil {
		t.Fatalf("%s: reading the look: %v", step, err)
	}
	fl, err := query.ReadLook(ctx(t), tw.page.Call, full, tw.page.TargetID(), true)
	if err != nil {
		t.Fatalf("%s: reading the look: %v", step, err)
	}
	a["look"], b["look"] = lookOutput(inc, il), lookOutput(full, fl)
	for _, k := range []string{"text", "json", "tree", "json with bounds", "look"} {
		if a[k] != b[k] {
			split := func(s string) string { return strings.ReplaceAll(s, "},{", "},\n{") }
			t.Errorf("%s: the %s snapshot's %s differs from a full capture's:\n%s", step, kindOf(inc), k, lineDiff(split(b[k]), split(a[k])))
		}
	}
}

// lookOutput is the text view of s with its scroll and covered marks.
func lookOutput(s *Snapshot, look *Look) string {
	o := DefaultOptions()
	o.Covered, o.Look = true, look
	sd, _ := flatten.Flatten(s, o)
	return flatten.FormatText(sd) + flatten.PageScrollText(sd)
}

func kindOf(s *Snapshot) string {
	if s.Incremental {
		return "incremental"
	}
	return "full"
}

// lineDiff lists the first lines that differ (- full, + incremental).
func lineDiff(full, inc string) string {
	fl, il := strings.Split(full, "\n"), strings.Split(inc, "\n")
	var out []string
	i, j := 0, 0
	for (i < len(fl) || j < len(il)) && len(out) < 16 {
		switch {
		case i < len(fl) && j < len(il) && fl[i] == il[j]:
			i++
			j++
		default:
			// resync: look ahead a little for the line in the other side
			found := false
			for k := 1; k < 40 && !found; k++ {
				if i < len(fl) && j+k < len(il) && fl[i] == il[j+k] {
					for ; k > 0; k-- {
						out = append(out, "+ "+il[j])
						j++
					}
					found = true
				} else if j < len(il) && i+k < len(fl) && il[j] == fl[i+k] {
					for ; k > 0; k-- {
						out = append(out, "- "+fl[i])
						i++
					}
					found = true
				}
			}
			if !found {
				if i < len(fl) {
					out = append(out, "- "+fl[i])
					i++
				}
				if j < len(il) {
					out = append(out, "+ "+il[j])
					j++
				}
			}
		}
	}
	return strings.Join(out, "\n")
}

// do performs an action and compares the snapshot after it with a full one.
func (tw *twin) do(t *testing.T, a Action, step string) ActionResult {
	t.Helper()
	res := tw.svc.Do(ctx(t), a)
	if !res.Success {
		t.Fatalf("%s: %s failed: %v", step, a.Kind, res.Error)
	}
	if res.Snapshot == nil {
		t.Fatalf("%s: the result says nothing of its snapshot", step)
	}
	tw.check(t, step)
	return res
}

// TestIncrementalBasics acts on the actions fixture page and compares
// every snapshot after an action with a full capture of the same state.
func TestIncrementalBasics(t *testing.T) {
	svc, p := openService(t, smallPageT(t), Config{})
	tw := newTwin(t, svc, p)
	tw.check(t, "first")
	s := snap(t, svc)
	res := tw.do(t, Action{Kind: "click", ID: byAttrID(t, s, "mod").ID}, "click #mod")
	t.Logf("click: %+v", res.Snapshot)
	s = snap(t, svc)
	tw.do(t, Action{Kind: "type", ID: byAttrID(t, s, "keys").ID, Text: "hello"}, "type")
	tw.do(t, Action{Kind: "key", Key: "Tab"}, "tab")
	if tw.incremental == 0 {
		t.Errorf("no snapshot after an action was incremental")
	}
}

func smallPageT(t *testing.T) string {
	base, _ := cdptest.Serve(t, actionPages)
	return base + "/basic.html"
}

// TestIncrementalTodoMVC runs the TodoMVC script in each framework and
// compares each snapshot after a step with a full capture: half of them
// here, the other half in the long lane (todoHalves).
func TestIncrementalTodoMVC(t *testing.T) { incrementalTodoMVC(t, todoHalves[1]) }

func TestIncrementalTodoMVCLong(t *testing.T) {
	cdptest.Long(t)
	incrementalTodoMVC(t, todoHalves[0])
}

func incrementalTodoMVC(t *testing.T, apps []string) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	for _, name := range apps {
		t.Run(name, func(t *testing.T) {
			app := todoApps[name]
			svc, p := openService(t, base+app.path, Config{})
			tw := newTwin(t, svc, p)
			var input *VirtualNode
			deadline := time.Now().Add(hangGuard)
			for input == nil && time.Now().Before(deadline) {
				svc.Do(ctx(t), Action{Kind: "snapshot", Full: true})
				input = findNode(snap(t, svc), func(n *VirtualNode) bool { return hasClass(n, app.input) })
				if input == nil {
					time.Sleep(100 * time.Millisecond)
				}
			}
			if input == nil {
				t.Fatalf("no new-todo input rendered")
			}
			for _, title := range []string{"Buy milk", "Walk the dog", "Write code"} {
				input = findNode(snap(t, svc), func(n *VirtualNode) bool { return hasClass(n, app.input) })
				tw.do(t, Action{Kind: "type", ID: input.ID, Text: title + "\n"}, "add "+title)
			}
			var toggle *VirtualNode
			walk(snap(t, svc).Root, func(n *VirtualNode) bool {
				if (n.Tag == "li" || hasClass(n, "todo-item")) && strings.Contains(nodeText(n), "Walk the dog") {
					toggle = within(n, func(c *VirtualNode) bool { return hasClass(c, app.toggle) })
				}
				return toggle == nil
			})
			if toggle == nil {
				t.Fatalf("no toggle for the second todo")
			}
			tw.do(t, Action{Kind: "hover", ID: toggle.ID}, "hover the toggle")
			tw.do(t, Action{Kind: "click", ID: toggle.ID}, "tick Walk the dog")
			active := findNode(snap(t, svc), func(n *VirtualNode) bool { return n.Tag == "a" && strings.TrimSpace(nodeText(n)) == "Active" })
			if active == nil {
				t.Fatalf("no Active filter link")
			}
			tw.do(t, Action{Kind: "click", ID: active.ID}, "filter Active")
			clear := findNode(snap(t, svc), func(n *VirtualNode) bool { return hasClass(n, app.clear) })
			if clear == nil {
				t.Fatalf("no Clear completed button")
			}
			tw.do(t, Action{Kind: "click", ID: clear.ID}, "clear completed")
			t.Logf("%s: %d incremental, %d full", name, tw.incremental, tw.full)
			if tw.incremental == 0 {
				t.Errorf("no snapshot was incremental")
			}
		})
	}
}

// TestIncrementalARIA drives WAI-ARIA examples by keys and compares each
// snapshot after a key with a full capture.
func TestIncrementalARIA(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "aria-practices")
	base, _ := cdptest.Serve(t, dir)
	cases := []struct {
		name, path, start string // start: CSS of the element focused first
		keys              []string
	}{
		{"combobox", "combobox/examples/combobox-select-only.html", "#combo1", []string{"ArrowDown", "ArrowDown", "ArrowDown", "Enter", "ArrowDown", "Escape"}},
		{"menubar", "menubar/examples/menubar-navigation.html", "[role=menubar] a[href='#about']", []string{"ArrowDown", "ArrowDown", "Escape", "ArrowRight", "ArrowDown", "Escape"}},
		{"treeview", "treeview/examples/treeview-1b.html", "[role=treeitem]", []string{"ArrowRight", "ArrowDown", "ArrowRight", "ArrowLeft", "ArrowUp", "ArrowLeft"}},
		{"tabs", "tabs/examples/tabs-automatic.html", "[role=tab]", []string{"ArrowRight", "ArrowRight", "Home", "End"}},
		{"disclosure", "disclosure/examples/disclosure-faq.html", "button[aria-expanded]", []string{"Enter", "Tab", "Enter", "shift+Tab", "Enter"}},
		{"dialog", "dialog-modal/examples/dialog.html", "button[onclick^=openDialog]", []string{"Enter", "Tab", "Tab", "Escape"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, p := openService(t, base+"/content/patterns/"+c.path, Config{})
			tw := newTwin(t, svc, p)
			// The examples show their "Open In CodePen" buttons from a
			// 500 ms timer. Wait for it, or the page changes between a
			// snapshot and the full capture beside it.
			deadline := time.Now().Add(hangGuard)
			for time.Now().Before(deadline) && domtest.EvalJS(t, p, `[...document.querySelectorAll('[id$=-codepenbutton]')].some(b => b.style.display == 'none')`) == true {
				time.Sleep(100 * time.Millisecond)
			}
			nodes, err := svc.QueryCSS(ctx(t), c.start)
			if err != nil || len(nodes) == 0 {
				t.Fatalf("no %s: %v", c.start, err)
			}
			tw.do(t, Action{Kind: "click", ID: nodes[0].ID, Force: true}, "click "+c.start)
			for i, k := range c.keys {
				tw.do(t, Action{Kind: "key", Key: k}, fmt.Sprintf("key %d %s", i+1, k))
			}
			t.Logf("%s: %d incremental, %d full", c.name, tw.incremental, tw.full)
			// disclosure and dialog embed a cross-origin frame: it is read
			// whole beside the page's incremental reads
			if tw.incremental == 0 {
				t.Errorf("no snapshot was incremental")
			}
		})
	}
}
