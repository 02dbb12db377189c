package script_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"domscope/dom/script"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
)

// The helpers shared with the other engine packages' tests.
var (
	actionPages = domtest.ActionPages
	openService = domtest.OpenService
	ctx         = domtest.Ctx
	evalJS      = domtest.EvalJS
	evalString  = domtest.EvalString
	snap        = domtest.Snap
)

func runLines(t *testing.T, svc *live.Service, opts script.Options, lines ...string) ([]script.StepResult, string, error) {
	t.Helper()
	var out bytes.Buffer
	err := script.Run(ctx(t), svc, strings.NewReader(strings.Join(lines, "\n")), &out, opts)
	var res []script.StepResult
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, `{"step"`) {
			continue
		}
		var r script.StepResult
		if json.Unmarshal([]byte(line), &r) == nil && r.Action != "" {
			res = append(res, r)
		}
	}
	return res, out.String(), err
}

func TestRunScript(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", live.Config{})
	res, out, err := runLines(t, svc, script.Options{},
		`# dismiss the cookie banner, then work the form`,
		`{"action":"click","target":{"css":"#accept"}}`,
		`{"action":"click","target":{"role":"button","name":"Click me"}}`,
		``,
		`{"action":"type","target":{"css":"#name"},"text":"Ada"}`,
		`{"action":"click","target":{"testid":"mods-button"},"modifiers":["Shift"]}`,
		`{"action":"key","key":"Tab"}`,
		`{"action":"select","target":{"css":"#fruit"},"value":"Banana"}`,
		`{"action":"click","target":{"text":"spawn"}}`,
		`{"action":"wait","for":{"css":"#spawned"},"timeout":3000}`,
		`{"action":"wait","ms":10}`,
		`{"action":"snapshot"}`,
		`{"action":"click","target":{"role":"link","nameContains":"page 2"}}`,
	)
	if err != nil {
		t.Fatalf("script failed: %v\n%s", err, out)
	}
	if len(res) != 11 {
		t.Fatalf("%d results, want 11:\n%s", len(res), out)
	}
	for i, r := range res {
		if !r.Success || r.Step != i+1 {
			t.Errorf("step %d: %+v", i+1, r)
		}
	}
	if res[1].Target == "" || !strings.Contains(res[1].Target, "Click me") {
		t.Errorf("resolved target not reported: %q", res[1].Target)
	}
	if !strings.Contains(out, "# snapshot #") {
		t.Errorf("the snapshot step printed no snapshot:\n%s", out)
	}
	if !res[10].Changes.Navigated {
		t.Errorf("last click did not report navigation: %+v", res[10].Changes)
	}
	if !strings.HasSuffix(evalString(t, p, "location.href"), "/page2.html") {
		t.Fatalf("script did not end on page 2")
	}
}

func TestRunScriptStopsOnFailure(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", live.Config{})
	res, out, err := runLines(t, svc, script.Options{FindTimeout: -1},
		`{"action":"click","target":{"role":"button","name":"No such button"}}`,
		`{"action":"click","target":{"css":"#accept"}}`,
	)
	if err == nil || len(res) != 1 || res[0].Error == nil || res[0].Error.Code != NodeNotFound {
		t.Fatalf("want a NODE_NOT_FOUND stop after step 1, got err=%v\n%s", err, out)
	}
	if !strings.Contains(res[0].Error.Message, "candidates") {
		t.Errorf("no candidates named: %s", res[0].Error.Message)
	}
	if v := evalJS(t, p, "!!document.getElementById('banner')"); v != true {
		t.Fatalf("a step after the failure ran")
	}
	// KeepGoing runs everything and still reports the failure.
	res, out, err = runLines(t, svc, script.Options{KeepGoing: true, FindTimeout: 300 * time.Millisecond},
		`{"action":"click","target":{"role":"button","name":"No such button"}}`,
		`not json`,
		`{"action":"fly"}`,
		`{"action":"click","target":{}}`,
		`{"action":"click","target":{"role":"button","unique":true}}`,
		`{"action":"click","target":{"css":"#accept"}}`,
	)
	if err == nil || len(res) != 6 {
		t.Fatalf("keep-going: err=%v, %d results\n%s", err, len(res), out)
	}
	for i, want := range []Code{NodeNotFound, ValidationError, ValidationError, ValidationError, ValidationError} {
		if res[i].Success || res[i].Error.Code != want {
			t.Errorf("step %d: want %s, got %+v", i+1, want, res[i].Error)
		}
	}
	if !strings.Contains(res[4].Error.Message, "ambiguous") || !strings.Contains(res[4].Error.Message, "Click me") {
		t.Errorf("ambiguous query does not name candidates: %s", res[4].Error.Message)
	}
	if !res[5].Success {
		t.Errorf("last step failed: %+v", res[5].Error)
	}
}

func TestRunScriptSnapshots(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", live.Config{})
	_, out, err := runLines(t, svc, script.Options{Snapshots: "json"}, `{"action":"click","target":{"css":"#accept"}}`)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], `{"step":1,"snapshot":{`) {
		t.Fatalf("json snapshots output:\n%s", out)
	}
	var sd struct {
		Snapshot SerializedDom `json:"snapshot"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &sd); err != nil || !strings.HasSuffix(sd.Snapshot.URL, "/basic.html") {
		t.Fatalf("snapshot line does not decode: %v %+v", err, sd.Snapshot.URL)
	}
}

// TestRunScriptTodoMVC replays the example script of testdata/scripts on
// the React TodoMVC. Role, name, test id and text queries resolve in real
// snapshots. Then it checks the page's own list.
func TestRunScriptTodoMVC(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	svc, p := openService(t, base+"/react/index.html", live.Config{})
	f, err := os.Open(domtest.Testdata("scripts", "todomvc-react.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if err := script.Run(ctx(t), svc, f, &out, script.Options{Snapshots: "text"}); err != nil {
		t.Fatalf("script failed: %v\n%s", err, out.String())
	}
	if got := domtest.PageTodos(t, p, ".todo-list li", "label"); !reflect.DeepEqual(got, []string{"Buy milk", "Write code"}) {
		t.Fatalf("page lists %q after the script\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), `"Write code"`) || !strings.Contains(out.String(), "# snapshot #") {
		t.Fatalf("snapshots missing from the output:\n%s", out.String())
	}
}

// TestRunSnapshotKinds checks that each result says how its snapshot was
// taken. It is incremental after a small action, full when a step asks.
func TestRunSnapshotKinds(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", live.Config{})
	res, out, err := runLines(t, svc, script.Options{},
		`{"action":"click","target":{"css":"#mod"}}`,
		`{"action":"snapshot"}`,
		`{"action":"snapshot","full":true}`,
	)
	if err != nil || len(res) != 3 {
		t.Fatalf("script failed (%d results): %v\n%s", len(res), err, out)
	}
	want := []string{"incremental", "incremental", "full"}
	for i, r := range res {
		if r.Snapshot == nil || r.Snapshot.Kind != want[i] || r.Snapshot.Ms <= 0 {
			t.Errorf("step %d: snapshot %+v, want kind %s", i+1, r.Snapshot, want[i])
		}
	}
	if _, _, err := runLines(t, svc, script.Options{}, `{"action":"click","target":{"css":"#mod"},"full":true}`); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("full on a click was accepted: %v", err)
	}
}
