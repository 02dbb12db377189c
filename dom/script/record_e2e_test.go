package script_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/export"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/query"
	"domscope/dom/script"
)

// act does a on the node pick chooses in the service's current snapshot,
// as the UI does. It checks it worked, and records it.
func act(t *testing.T, svc *live.Service, rec *script.Recorder, pick func(*Snapshot) *VirtualNode, a Action) {
	t.Helper()
	s := snap(t, svc)
	if pick != nil {
		n := pick(s)
		if n == nil {
			t.Fatalf("%s: no node to act on", a.Kind)
		}
		a.ID = n.ID
	}
	res := svc.Do(ctx(t), a)
	if !res.Success {
		t.Fatalf("%s on %s: %v", a.Kind, a.ID, res.Error)
	}
	if _, ok, err := rec.Record(s, a, res, string(a.Kind)+" "+a.Text+a.Key+" on "+a.ID); err != nil || !ok {
		t.Fatalf("recording %s: ok=%v %v", a.Kind, ok, err)
	}
}

func byClass(class string) func(*Snapshot) *VirtualNode {
	return func(s *Snapshot) *VirtualNode {
		var f *VirtualNode
		Walk(s.Root, func(n *VirtualNode) {
			if f == nil && n.NodeType == ElementNode && hasClass(n, class) {
				f = n
			}
		})
		return f
	}
}

func hasClass(n *VirtualNode, c string) bool {
	for _, f := range strings.Fields(n.Attrs["class"]) {
		if f == c {
			return true
		}
	}
	return false
}

// toggleOf picks the checkbox of the todo item titled title.
func toggleOf(title string) func(*Snapshot) *VirtualNode {
	return func(s *Snapshot) *VirtualNode {
		var f *VirtualNode
		Walk(s.Root, func(n *VirtualNode) {
			if f != nil || n.Tag != "li" {
				return
			}
			var label, toggle *VirtualNode
			Walk(n, func(c *VirtualNode) {
				if c.Tag == "label" && label == nil {
					label = c
				}
				if hasClass(c, "toggle") && toggle == nil {
					toggle = c
				}
			})
			if label != nil && toggle != nil && len(label.Children) > 0 && strings.TrimSpace(label.Children[0].Text) == title {
				f = toggle
			}
		})
		return f
	}
}

func completedTodos(t *testing.T, p Session) []string {
	t.Helper()
	v := evalJS(t, p, `[...document.querySelectorAll('.todo-list li.completed label')].map(l => l.textContent.trim())`)
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	sort.Strings(out)
	return out
}

// TestRecordReplayTodoMVC records, through the service, typing three
// todos, checking two and unchecking one, on React and Vue TodoMVC. It
// replays the script with script.Run in a new tab on a fresh load.
// That is another origin, so the app's saved list is empty. Then it
// checks the page's own list and checked states.
func TestRecordReplayTodoMVC(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	for _, app := range []string{"react", "vue"} {
		t.Run(app, func(t *testing.T) {
			base, _ := cdptest.Serve(t, dir)
			svc, p := openService(t, base+"/"+app+"/index.html", live.Config{})
			var file bytes.Buffer
			rec := script.NewRecorder(&file)
			todos := []string{"Buy milk", "Walk the dog", "Write code"}
			for _, title := range todos {
				act(t, svc, rec, byClass("new-todo"), Action{Kind: KindType, Text: title + "\n"})
			}
			act(t, svc, rec, toggleOf("Walk the dog"), Action{Kind: KindClick})
			act(t, svc, rec, toggleOf("Write code"), Action{Kind: KindClick})
			act(t, svc, rec, toggleOf("Write code"), Action{Kind: KindClick})
			wantDone := []string{"Walk the dog"}
			if got := completedTodos(t, p); !reflect.DeepEqual(got, wantDone) {
				t.Fatalf("the recorded session left %q checked", got)
			}
			recorded := file.String()
			t.Logf("recorded:\n%s", recorded)
			if strings.Contains(recorded, `"id"`) || strings.Contains(recorded, "node_") {
				t.Fatalf("the script names node IDs:\n%s", recorded)
			}
			if rec.Len() != 6 || len(rec.Log()) != 6 {
				t.Fatalf("log has %d steps, want 6", rec.Len())
			}

			base2, _ := cdptest.Serve(t, dir)
			svc2, p2 := openService(t, base2+"/"+app+"/index.html", live.Config{})
			var out bytes.Buffer
			if err := script.Run(ctx(t), svc2, strings.NewReader(recorded), &out, script.Options{}); err != nil {
				t.Fatalf("replay failed: %v\n%s", err, out.String())
			}
			want := append([]string(nil), todos...)
			sort.Strings(want)
			if got := domtest.PageTodos(t, p2, ".todo-list li", "label"); !reflect.DeepEqual(got, want) {
				t.Fatalf("replay: page lists %q, want %q\n%s", got, want, out.String())
			}
			if got := completedTodos(t, p2); !reflect.DeepEqual(got, wantDone) {
				t.Fatalf("replay: checked %q, want %q\n%s", got, wantDone, out.String())
			}
		})
	}
}

// TestRecordReplaySignIn records signing in on the demo page, password
// included. It replays it in a new tab, and the page greets the same
// user. The password is in no recorded form: the script, the session log,
// an export with the log.
func TestRecordReplaySignIn(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	const secret = "hunter2-Sekr1t"
	svc, p := openService(t, base+"/signin.html", live.Config{})
	var file bytes.Buffer
	rec := script.NewRecorder(&file)
	q := func(q query.Query) func(*Snapshot) *VirtualNode {
		return func(s *Snapshot) *VirtualNode {
			n, _ := query.Pick(s, q, query.FindNodes(s, q))
			return n
		}
	}
	act(t, svc, rec, q(query.Query{Role: "textbox", Name: "Email"}), Action{Kind: KindType, Text: "ada@example.com"})
	act(t, svc, rec, q(query.Query{Role: "textbox", Name: "Password"}), Action{Kind: KindType, Text: secret})
	act(t, svc, rec, nil, Action{Kind: KindKey, Key: "x"}) // pressed in the focused password field
	act(t, svc, rec, q(query.Query{Role: "checkbox", Name: "Remember me"}), Action{Kind: KindClick})
	act(t, svc, rec, q(query.Query{Role: "button", Name: "Sign in"}), Action{Kind: KindClick})
	const welcome = "Welcome back, ada@example.com!"
	if got := evalString(t, p, `document.getElementById('msg').textContent`); got != welcome {
		t.Fatalf("the session did not sign in: %q", got)
	}
	recorded := file.String()
	t.Logf("recorded:\n%s", recorded)

	// Nothing recorded holds the password or the key pressed into it.
	s := snap(t, svc)
	c, err := export.NewSavedCapture(s, DefaultOptions(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Session = rec.Log()
	var saved, all bytes.Buffer
	if err := c.Write(&saved); err != nil {
		t.Fatal(err)
	}
	if err := rec.WriteScript(&all); err != nil {
		t.Fatal(err)
	}
	steps, _ := json.Marshal(rec.Steps())
	for name, b := range map[string]string{"script file": recorded, "WriteScript": all.String(), "steps": string(steps), "export": saved.String()} {
		if strings.Contains(b, secret) || strings.Contains(b, "hunter2") {
			t.Errorf("the %s holds the password", name)
		}
	}
	if !strings.Contains(recorded, `"text":"••••","comment":"value withheld`) {
		t.Errorf("the password step is not written masked with its comment:\n%s", recorded)
	}
	if !strings.Contains(recorded, `"key":"••••"`) {
		t.Errorf("the key pressed into the password field is not masked:\n%s", recorded)
	}
	if all.String() != recorded {
		t.Errorf("WriteScript differs from the file written as it went:\n%s\n---\n%s", all.String(), recorded)
	}
	back, err := export.ReadCapture(&saved)
	if err != nil {
		t.Fatal(err)
	}
	log := back.SessionLog()
	if len(log) != 5 || log[4].Result == nil || !log[4].Result.Success || log[4].Result.Duration == 0 {
		t.Fatalf("the export's session log: %+v", log)
	}
	if st, err := script.SessionSteps(log); err != nil || st[4].Action != "click" || st[4].Target.Name != "Sign in" {
		t.Fatalf("session steps: %+v %v", st, err)
	}

	// Replay in a new tab, without the withheld key. Give a value for the
	// withheld password; the page does not check it.
	var kept []string
	for _, l := range strings.Split(recorded, "\n") {
		if !strings.Contains(l, `"action":"key"`) {
			kept = append(kept, l)
		}
	}
	svc2, p2 := openService(t, base+"/signin.html", live.Config{})
	var out bytes.Buffer
	// the withheld password is given as DOMSCOPE_SECRET_2 would give it
	fill := script.Options{Secret: func(n int) (string, bool) { return "replayed-pw", n == 2 }}
	if err := script.Run(ctx(t), svc2, strings.NewReader(strings.Join(kept, "\n")), &out, fill); err != nil {
		t.Fatalf("replay failed: %v\n%s", err, out.String())
	}
	if got := evalString(t, p2, `document.getElementById('msg').textContent`); got != welcome {
		t.Fatalf("replay: %q\n%s", got, out.String())
	}
	if v := evalJS(t, p2, `document.querySelector('input[name=remember]').checked`); v != false {
		t.Fatalf("replay: Remember me is %v", v)
	}
	if got := evalString(t, p2, `document.getElementById('password').value`); got != "replayed-pw" {
		t.Fatalf("replay typed %q into the password field, want the value given for it", got)
	}
	if strings.Contains(out.String(), "replayed-pw") {
		t.Errorf("the replay's output holds the password:\n%s", out.String())
	}
}

// TestTargetForResolvesBack covers every visible element of the demo
// pages and the action fixture. The recorded query resolves to that same
// element in the live page. It does so through the replay's own
// resolution too (CSS paths through the browser). Only a nameless
// container in a shadow root or frame has none.
func TestTargetForResolvesBack(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	fixtures, _ := cdptest.Serve(t, actionPages)
	kinds := map[string]int{}
	for _, u := range []string{base + "/signin.html", base + "/components.html", fixtures + "/basic.html"} {
		svc, _ := openService(t, u, live.Config{})
		s := snap(t, svc)
		checked := 0
		Walk(s.Root, func(n *VirtualNode) {
			if n.NodeType != ElementNode || !n.Visible || t.Failed() {
				return
			}
			q, err := script.TargetFor(s, n)
			if err != nil {
				// A nameless container where no CSS path reaches is
				// refused. "generic" with nth is only a position.
				if n.Tier != Semantic && script.CSSPath(s, n) == "" && strings.TrimSpace(n.Name) == "" {
					kinds["refused"]++
					return
				}
				t.Errorf("%s: %s: %v", u, NodeLabel(n, 30), err)
				return
			}
			switch {
			case q.Name != "":
				kinds["role+name"]++
			case q.TestID != "":
				kinds["testid"]++
			case q.CSS != "":
				kinds["css"]++
			default:
				kinds["role"]++
			}
			got, err := script.Resolve(ctx(t), svc, q)
			if err != nil || got != n {
				t.Errorf("%s: %s recorded as %s resolves to %v (%v)", u, NodeLabel(n, 30), q, got, err)
			}
			checked++
		})
		if checked < 10 {
			t.Errorf("%s: only %d elements checked", u, checked)
		}
	}
	t.Logf("queries: %v", kinds)
	if kinds["css"] == 0 || kinds["role+name"] == 0 { // testid: the React TodoMVC replay
		t.Errorf("not every kind of query was exercised: %v", kinds)
	}
}
