package live_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// twin is a second CDP session on the service's tab: full captures taken
// through it leave the service's own session (and its node ids, which the
// live model follows) alone.
type twin struct {
	svc  *Service
	page *cdpconn.Page
	self *cdpconn.Page
	// incremental counts the snapshots that were incremental, full the rest.
	incremental, full int
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
	sd, d := Flatten(s, DefaultOptions())
	js, err := FormatJSON(sd)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"text": FormatText(sd),
		"json": timestampRE.ReplaceAllString(string(js), `"timestamp":""`),
		"tree": FormatTree(s, d),
	}
}

// check compares the service's current snapshot with a full capture of
// the same page taken beside it, in every format; step names the moment.
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
	}
	full, err := Take(ctx(t), tw.page, BuildOptions{Prev: inc})
	if err != nil {
		t.Fatalf("%s: full capture: %v", step, err)
	}
	a, b := outputs(t, inc), outputs(t, full)
	for _, k := range []string{"text", "json", "tree"} {
		if a[k] != b[k] {
			t.Errorf("%s: the %s snapshot's %s differs from a full capture's:\n%s", step, kindOf(inc), k, lineDiff(b[k], a[k]))
		}
	}
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
