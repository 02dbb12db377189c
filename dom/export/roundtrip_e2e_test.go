package export_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/build"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/query"
	"domscope/dom/script"
)

// exportRoundTrip saves s as `e` does and reads the file back as
// `domscope open` does. The rebuilt snapshot must have every node's ID and
// the same text, json and token count as the live one.
func exportRoundTrip(t *testing.T, s *Snapshot) {
	t.Helper()
	opts := DefaultOptions()
	c, err := export.NewSavedCapture(s, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	idsJSON, _ := json.Marshal(c.IDs)
	t.Logf("ids: %d bytes for %d nodes", len(idsJSON), len(s.ByID))
	var file bytes.Buffer
	if err := c.Write(&file); err != nil {
		t.Fatal(err)
	}
	t.Logf("export: %d bytes", file.Len())
	back, err := export.ReadCapture(&file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var want, have []string
	Walk(s.Root, func(n *VirtualNode) { want = append(want, n.ID) })
	Walk(got.Root, func(n *VirtualNode) { have = append(have, n.ID) })
	if len(want) != len(have) {
		t.Fatalf("rebuilt %d nodes, live had %d", len(have), len(want))
	}
	for i := range want {
		if want[i] != have[i] {
			t.Fatalf("node %d of the tree: live %s, reopened %s", i, want[i], have[i])
		}
	}
	liveSD, _ := flatten.Flatten(s, opts)
	openSD, _ := flatten.Flatten(got, back.FlattenOptions())
	lt, ot := flatten.FormatText(liveSD), flatten.FormatText(openSD)
	if lt != ot {
		t.Fatalf("text differs:\nlive:\n%s\nreopened:\n%s", clipLines(lt), clipLines(ot))
	}
	lj, _ := flatten.FormatJSON(liveSD)
	oj, _ := flatten.FormatJSON(openSD)
	if !bytes.Equal(lj, oj) {
		t.Fatalf("json differs")
	}
	if flatten.CountTokens(lt) != flatten.CountTokens(ot) || back.Tokens != flatten.CountTokens(lt) || back.Text != lt {
		t.Fatalf("tokens: live %d, reopened %d, saved %d", flatten.CountTokens(lt), flatten.CountTokens(ot), back.Tokens)
	}
	if got.NextID != s.NextID {
		t.Errorf("NextID: live %d, reopened %d", s.NextID, got.NextID)
	}
}

func clipLines(s string) string {
	l := strings.SplitN(s, "\n", 30)
	return strings.Join(l[:min(len(l), 29)], "\n")
}

// freshText is what a build of the same capture without the IDs would
// show; `open` did that before. The test only means something when it
// differs from the live view.
func freshText(t *testing.T, s *Snapshot) string {
	t.Helper()
	raw, err := s.Capture()
	if err != nil {
		t.Fatal(err)
	}
	f, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sd, _ := flatten.Flatten(f, DefaultOptions())
	return flatten.FormatText(sd)
}

// TestExportKeepsIDs types, checks and clears on the React TodoMVC. New
// nodes get new numbers; removed ones leave gaps. The reopened export
// shows the IDs, text, json and tokens of the live view.
func TestExportKeepsIDs(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	svc, _ := domtest.OpenService(t, base+"/react/index.html", live.Config{})
	lines := strings.Join([]string{
		`{"action":"type","target":{"css":".new-todo"},"text":"Buy milk\n"}`,
		`{"action":"type","target":{"css":".new-todo"},"text":"Walk the dog\n"}`,
		`{"action":"click","target":{"css":".todo-list li .toggle"}}`,
		`{"action":"click","target":{"role":"button","name":"Clear completed"}}`,
		`{"action":"type","target":{"css":".new-todo"},"text":"Write code\n"}`,
	}, "\n")
	var out bytes.Buffer
	if err := script.Run(domtest.Ctx(t), svc, strings.NewReader(lines), &out, script.Options{}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	s := domtest.Snap(t, svc)
	sd, _ := flatten.Flatten(s, DefaultOptions())
	if freshText(t, s) == flatten.FormatText(sd) {
		t.Fatalf("the actions did not renumber anything; the test would prove nothing")
	}
	exportRoundTrip(t, s)
}

// TestExportKeepsIDsSynthetic50000Long: the same on the 50,000-node
// synthetic page. The page first inserts nodes at its top.
func TestExportKeepsIDsSynthetic50000Long(t *testing.T) {
	cdptest.Long(t)
	dir := filepath.Join(cdptest.Shared(t), "corpus", "synthetic")
	base, _ := cdptest.Serve(t, dir)
	// One CDP call may take minutes when CI runs packages side by side;
	// the AX tree is about 40 MB here. The bound is only a hang guard.
	svc, p := domtest.OpenService(t, base+"/synthetic-50000.html", live.Config{CallTimeout: domtest.HangGuard})
	domtest.EvalJS(t, p, `(() => { const b = document.createElement('button'); b.textContent = 'Inserted first'; document.body.prepend(b); return 1; })()`)
	s, err := svc.Snapshot(domtest.Ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if query.FindNodes(s, query.Query{Role: "button", Name: "Inserted first"}) == nil {
		t.Fatal("the inserted button is not in the snapshot")
	}
	sd, _ := flatten.Flatten(s, DefaultOptions())
	if freshText(t, s) == flatten.FormatText(sd) {
		t.Fatalf("inserting did not renumber anything; the test would prove nothing")
	}
	exportRoundTrip(t, s)
}
