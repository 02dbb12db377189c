package live_test

import (
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// deepJS and jsq are shared with the script tests.
const deepJS = domtest.DeepJS

var jsq = domtest.JSQuote

// todoApp says how one TodoMVC build names its parts.
type todoApp struct {
	path   string
	input  string // class of the new-todo field
	toggle string // class of an item's checkbox
	clear  string // class of the Clear completed button
	item   string // CSS of an item, for the page's own state
	title  string // CSS of an item's title inside it
	done   string // CSS of a completed item
}

var todoApps = map[string]todoApp{
	"react":          {"/react/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"vue":            {"/vue/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"angular":        {"/angular/browser/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"preact":         {"/preact/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"svelte":         {"/svelte/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"jquery":         {"/jquery/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"javascript-es6": {"/javascript-es6/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"backbone":       {"/backbone/index.html", "new-todo", "toggle", "clear-completed", ".todo-list li", "label", ".todo-list li.completed"},
	"lit":            {"/lit/index.html", "new-todo", "toggle", "clear-completed", "li:has(.toggle)", "label", "li.completed"},
	"web-components": {"/web-components/index.html", "new-todo-input", "toggle-todo-input", "clear-completed-button", ".todo-item", ".todo-item-text", "todo-item[item-completed=true]"},
}

// pageTodos returns the titles of the todo items the page shows, read by
// the page itself (through open shadow roots).
func pageTodos(t *testing.T, p Session, app todoApp) []string {
	t.Helper()
	return domtest.PageTodos(t, p, app.item, app.title)
}

func pageCount(t *testing.T, p Session, css string) float64 {
	t.Helper()
	v, _ := evalJS(t, p, `(() => { `+deepJS+` return deep(`+jsq(css)+`).length; })()`).(float64)
	return v
}

// snapTodos returns the titles of the visible todo items of a snapshot:
// each item checkbox's enclosing <li> (or .todo-item) and its title.
func snapTodos(s *Snapshot, app todoApp) []string {
	var out []string
	walk(s.Root, func(n *VirtualNode) bool {
		if n.NodeType != ElementNode || !hasClass(n, app.toggle) {
			return true
		}
		li := n.Parent
		for li != nil && li.Tag != "li" && !hasClass(li, "todo-item") {
			li = li.Parent
		}
		if li == nil || !li.Visible {
			return true
		}
		cls := strings.TrimPrefix(app.title, ".")
		if t := within(li, func(c *VirtualNode) bool { return c.Tag == app.title || hasClass(c, cls) }); t != nil {
			out = append(out, strings.TrimSpace(nodeText(t)))
		}
		return true
	})
	sort.Strings(out)
	return out
}

func hasClass(n *VirtualNode, c string) bool {
	for _, f := range strings.Fields(n.Attrs["class"]) {
		if f == c {
			return true
		}
	}
	return false
}

// findNode returns the first element (document order) matching f.
func findNode(s *Snapshot, f func(*VirtualNode) bool) *VirtualNode {
	var found *VirtualNode
	walk(s.Root, func(n *VirtualNode) bool {
		if found == nil && n.NodeType == ElementNode && f(n) {
			found = n
		}
		return found == nil
	})
	return found
}

func within(anc *VirtualNode, f func(*VirtualNode) bool) *VirtualNode {
	var found *VirtualNode
	walk(anc, func(n *VirtualNode) bool {
		if found == nil && n.NodeType == ElementNode && f(n) {
			found = n
		}
		return found == nil
	})
	return found
}

// todoHalves are the TodoMVC apps in two halves. make test runs the
// script on the first and the incremental twin on the second; the long
// lane the other way round. Each app is in each test once.
var todoHalves = [2][]string{
	{"react", "vue", "angular", "web-components", "lit"},
	{"preact", "svelte", "jquery", "javascript-es6", "backbone"},
}

func TestTodoMVC(t *testing.T) { todoMVC(t, todoHalves[0]) }

func TestTodoMVCLong(t *testing.T) {
	cdptest.Long(t)
	todoMVC(t, todoHalves[1])
}

func todoMVC(t *testing.T, apps []string) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	for _, name := range apps {
		t.Run(name, func(t *testing.T) {
			app := todoApps[name]
			svc, p := openService(t, base+app.path, Config{})
			var input *VirtualNode
			deadline := time.Now().Add(hangGuard)
			for input == nil && time.Now().Before(deadline) {
				s, err := svc.Snapshot(ctx(t), true)
				if err != nil {
					t.Fatal(err)
				}
				input = findNode(s, func(n *VirtualNode) bool { return hasClass(n, app.input) })
				if input == nil {
					time.Sleep(100 * time.Millisecond)
				}
			}
			if input == nil {
				t.Fatalf("no .new-todo input rendered")
			}
			todos := []string{"Buy milk", "Walk the dog", "Write code"}
			for _, title := range todos {
				s := snap(t, svc)
				input = findNode(s, func(n *VirtualNode) bool { return hasClass(n, app.input) })
				mustOK(t, svc.Do(ctx(t), Action{Kind: "type", ID: input.ID, Text: title + "\n"}))
			}
			if got := pageTodos(t, p, app); !reflect.DeepEqual(got, todos) {
				t.Fatalf("after typing three todos the page lists %q", got)
			}

			// Complete "Walk the dog" by clicking its checkbox.
			s := snap(t, svc)
			var toggle *VirtualNode
			walk(s.Root, func(n *VirtualNode) bool {
				if (n.Tag == "li" || hasClass(n, "todo-item")) && strings.Contains(nodeText(n), "Walk the dog") {
					toggle = within(n, func(c *VirtualNode) bool { return hasClass(c, app.toggle) })
				}
				return toggle == nil
			})
			if toggle == nil {
				t.Fatalf("no toggle for the second todo")
			}
			mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: toggle.ID}))
			if v := pageCount(t, p, app.done); v != 1 {
				t.Fatalf("completed items in the page: %v", v)
			}

			// Filter "Active".
			s = snap(t, svc)
			active := findNode(s, func(n *VirtualNode) bool { return n.Tag == "a" && strings.TrimSpace(nodeText(n)) == "Active" })
			if active == nil {
				t.Fatalf("no Active filter link")
			}
			res := svc.Do(ctx(t), Action{Kind: "click", ID: active.ID})
			mustOK(t, res)
			if got := pageTodos(t, p, app); !reflect.DeepEqual(got, []string{"Buy milk", "Write code"}) {
				t.Fatalf("Active filter shows %q", got)
			}

			// Clear completed.
			s = snap(t, svc)
			clear := findNode(s, func(n *VirtualNode) bool { return hasClass(n, app.clear) })
			if clear == nil {
				t.Fatalf("no Clear completed button")
			}
			mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: clear.ID}))
			if v := pageCount(t, p, app.item); v != 2 {
				t.Fatalf("items in the page after Clear completed: %v", v)
			}
			want := []string{"Buy milk", "Write code"}
			if got := pageTodos(t, p, app); !reflect.DeepEqual(got, want) {
				t.Fatalf("page lists %q after clearing", got)
			}
			if got := snapTodos(snap(t, svc), app); !reflect.DeepEqual(got, want) {
				t.Fatalf("re-snapshot lists %q, the page %q", got, want)
			}
		})
	}
}
