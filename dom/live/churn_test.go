package live_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// The churn page (testdata/pages/actions/churn.html) never goes quiet.
// A clock replaces its text every 30 ms, a status line every 70 ms and a
// feed its items every 110 ms. A snapshot read while it changes is
// compared with a full capture of the page held still a moment later
// (its pause()). The counters, six digits each, are the only thing that
// may differ. Node ids are compared by order of appearance: a text the
// page replaced since is another node, with an id of its own.

var (
	counterRE = regexp.MustCompile(`([^\d.])\d{6}\b`)
	nodeIDRE  = regexp.MustCompile(`node_\d+|\[\d+\]`)
)

// canon is an output with the page's counters masked and node ids
// numbered in order of appearance.
func canon(s string) string {
	s = counterRE.ReplaceAllString(s, "${1}######")
	seen := map[string]string{}
	return nodeIDRE.ReplaceAllStringFunc(s, func(id string) string {
		if v, ok := seen[id]; ok {
			return v
		}
		v := fmt.Sprintf("<%d>", len(seen))
		seen[id] = v
		return v
	})
}

// churnShown checks what a snapshot of the churn page must show whatever
// the moment. The clock's number and the status line are drawn. No text
// the page wrote is judged not rendered.
func churnShown(t *testing.T, s *Snapshot, step string) {
	t.Helper()
	for _, id := range []string{"clock", "status"} {
		n := findAttr(s, "id", id)
		if n == nil {
			t.Errorf("%s: no #%s", step, id)
			continue
		}
		drawn := false
		for _, c := range n.Children {
			drawn = drawn || (c.NodeType == TextNode && c.Visible && strings.TrimSpace(c.Text) != "")
		}
		if !drawn {
			t.Errorf("%s: #%s shows no text (%s snapshot): %s", step, id, kindOf(s), childrenOf(n))
		}
	}
	walk(s.Root, func(n *VirtualNode) bool {
		if n.NodeType == TextNode && n.Hidden == HiddenNotRendered && strings.TrimSpace(n.Text) != "" {
			t.Errorf("%s: the text %q is judged not rendered (%s snapshot)", step, n.Text, kindOf(s))
		}
		return true
	})
	sd, _ := flatten.Flatten(s, DefaultOptions())
	text := flatten.FormatText(sd)
	for _, re := range []string{`Time:\s+\d{6}`, `status \d{6}`, `feed \d{6}`, `Frame time:\s+\d{6}`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("%s: the LLM view has no %s (%s snapshot):\n%s", step, re, kindOf(s), text)
		}
	}
}

func childrenOf(n *VirtualNode) string {
	var out []string
	for _, c := range n.Children {
		out = append(out, fmt.Sprintf("%s %q hidden=%q", c.Tag, c.Text, c.Hidden))
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// checkChurn compares snapshot s, read while the page changed, with a
// full capture of the page held still.
func (tw *twin) checkChurn(t *testing.T, s *Snapshot, step string) {
	t.Helper()
	churnShown(t, s, step)
	if s.Incremental {
		tw.incremental++
	} else {
		tw.full++
		t.Logf("%s: full capture: %s", step, tw.svc.Fallback())
	}
	domtest.EvalJS(t, tw.page, "pause(), true")
	defer domtest.EvalJS(t, tw.page, "resume(), true")
	full, err := capture.Take(ctx(t), tw.page, build.Options{Prev: s})
	if err != nil {
		t.Fatalf("%s: full capture: %v", step, err)
	}
	if s.Incremental {
		tw.incMs += StatOf(s).Ms
		tw.fullMs += StatOf(full).Ms
	}
	a, b := outputs(t, s), outputs(t, full)
	for _, k := range []string{"text", "json", "tree", "json with bounds"} {
		if ca, cb := canon(a[k]), canon(b[k]); ca != cb {
			split := func(s string) string { return strings.ReplaceAll(s, "},{", "},\n{") }
			t.Errorf("%s: the %s snapshot's %s differs from a full capture's:\n%s", step, kindOf(s), k, lineDiff(split(cb), split(ca)))
		}
	}
}

// TestIncrementalUnderChurn acts again and again on a page that never
// goes quiet. Every snapshot after an action shows the texts the page
// keeps replacing, drawn, as a full capture does.
func TestIncrementalUnderChurn(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/churn.html", Config{})
	tw := newTwin(t, svc, p)
	churnShown(t, snap(t, svc), "first")
	actions := []func(s *Snapshot) Action{
		func(s *Snapshot) Action { return Action{Kind: "click", ID: byAttrID(t, s, "go").ID} },
		func(s *Snapshot) Action { return Action{Kind: "type", ID: byAttrID(t, s, "note").ID, Text: "abc"} },
		func(s *Snapshot) Action { return Action{Kind: "key", Key: "Tab"} },
		func(s *Snapshot) Action { return Action{Kind: "scroll", DY: 150} },
		func(s *Snapshot) Action { return Action{Kind: "hover", ID: byAttrID(t, s, "go").ID} },
	}
	for i := range 30 {
		a := actions[i%len(actions)](snap(t, svc))
		res := svc.Do(ctx(t), a)
		if !res.Success {
			t.Fatalf("action %d (%s) failed: %v", i, a.Kind, res.Error)
		}
		s := svc.Current()
		if s == nil {
			t.Fatalf("action %d (%s) left no snapshot", i, a.Kind)
		}
		tw.checkChurn(t, s, fmt.Sprintf("action %d %s", i, a.Kind))
		if t.Failed() {
			break
		}
	}
	t.Logf("%d incremental, %d full", tw.incremental, tw.full)
	if tw.incremental == 0 {
		t.Errorf("no snapshot after an action was incremental")
	} else {
		t.Logf("a read under churn took %.1f ms on average; a full capture of the page held still, %.1f ms",
			tw.incMs/float64(tw.incremental), tw.fullMs/float64(tw.incremental))
	}
}

// TestFollowUnderChurn: on a page that never goes quiet the service still
// reports its changes, at least once a second, each report marked busy.
// The snapshot taken on each (as the UI does) shows the page as a full
// capture does.
func TestFollowUnderChurn(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/churn.html", Config{})
	tw := newTwin(t, svc, p)
	drain(svc)
	reports := 0
	deadline := time.After(60 * time.Second) // a hang guard, not a timing
	for reports < 8 {
		select {
		case e := <-svc.Events():
			if e.Kind != "page-changed" {
				continue
			}
			if !e.Busy {
				continue // the page was held still for the last comparison
			}
			reports++
			s, err := svc.Snapshot(ctx(t), true)
			if err != nil {
				t.Fatalf("report %d: snapshot: %v", reports, err)
			}
			tw.checkChurn(t, s, fmt.Sprintf("follow %d", reports))
			if t.Failed() {
				return
			}
		case <-deadline:
			t.Fatalf("%d busy page-changed reports in 60 s on a page that changes every 30 ms", reports)
		}
	}
	t.Logf("%d reports: %d incremental, %d full", reports, tw.incremental, tw.full)
	if tw.incremental == 0 {
		t.Errorf("no snapshot in follow mode was incremental")
	}
}

// TestIncrementalPrivacyUnderChurn: a page draws its sensitive fields
// anew every 40 ms, the secrets in them, while it is read. The nodes
// read one by one (inserted during a refresh) leak nothing into any
// output. Once the page is held still, they leak nothing into the model
// written out as a capture either.
func TestIncrementalPrivacyUnderChurn(t *testing.T) {
	const pw, code = "Churn-Pa55-Zebra", "Otp-917-Secret"
	page := `<!doctype html><title>secrets</title><style>body{font:16px monospace}</style>
<p>Time: <span id="clock">000000</span></p><form id="f"></form><button id="go">Go</button>
<script>
let n = 0;
const pad = (i) => String(i).padStart(6, '0');
window.timers = [setInterval(() => { document.getElementById('clock').textContent = pad(++n); }, 30),
  setInterval(() => {
    document.getElementById('f').innerHTML = '<input type="password" aria-label="Password" value="` + pw + `">' +
      '<div contenteditable="true" role="textbox" aria-label="Code" autocomplete="one-time-code"><b>` + code + `</b></div>';
  }, 40)];
</script>`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "secrets.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	svc, p := openService(t, base+"/secrets.html", Config{})
	leaks := func(step string, outs map[string]string) {
		t.Helper()
		for k, v := range outs {
			for _, secret := range []string{pw, code} {
				if strings.Contains(v, secret) {
					t.Fatalf("%s: the %s output holds %q", step, k, secret)
				}
			}
		}
	}
	incremental := 0
	for i := range 15 {
		res := svc.Do(ctx(t), Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "go").ID})
		if !res.Success {
			t.Fatalf("click %d: %v", i, res.Error)
		}
		s := svc.Current()
		if s.Incremental {
			incremental++
		}
		// the page has moved on: the raw capture is written at the end
		outs := outputs(t, s)
		all := Options{IncludeValues: true, IncludeHidden: true, IncludeOffscreen: true, IncludeBoundingBoxes: true, IncludeBackendIDs: true}
		sd, _ := flatten.Flatten(s, all)
		js, _ := flatten.FormatJSON(sd)
		outs["json, every option"], outs["text, every option"] = string(js), flatten.FormatText(sd)
		raw, _ := json.Marshal(res)
		outs["action result"] = string(raw)
		leaks(fmt.Sprintf("click %d (%s)", i, kindOf(s)), outs)
	}
	t.Logf("%d of 15 incremental", incremental)
	domtest.EvalJS(t, p, "window.timers.forEach(clearInterval), true")
	s, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	leaks("held still", everyOutput(t, s))
}
