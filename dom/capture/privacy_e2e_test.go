package capture_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
)

// privacyVariants are the sensitive fields of privacy-variants.html and
// privacy-frame.html (by id) and the secret each holds. Every secret is
// unique, so a search finds exactly where it leaked. The textareas' card
// numbers are also searched for alone. Chrome's inline text boxes split
// them from the rest.
var privacyVariants = []struct{ id, secret string }{
	{"upper-type", "SECRET-UPPERTYPE-1101"},    // TYPE=PASSWORD
	{"upper-ac", "SECRET-UPPERAC-1102"},        // AUTOCOMPLETE="CC-NUMBER"
	{"long-ac", "SECRET-LONGAC-1103"},          // "section-x shipping cc-csc"
	{"cur-pw", "SECRET-CURPW-1104"},            // type=text autocomplete=current-password
	{"new-pw", "SECRET-NEWPW-1105"},            // type=text autocomplete=new-password
	{"otc", "SECRET-OTC-1106"},                 // one-time-code
	{"cc-exp", "SECRET-CCEXP-1107"},            // cc-exp
	{"ta", "6011111111111117"},                 // textarea cc-number, split by line wrapping
	{"editable", "SECRET-EDITABLE-1108"},       // contenteditable div with autocomplete=cc-csc
	{"scripted", "SECRET-SCRIPTED-1110"},       // type=password, value set by script
	{"typed", "SECRET-TYPED-1116"},             // type=password, typed by the test
	{"typed-ta", "5555444433332222"},           // textarea cc-number, typed by the test
	{"s", "SECRET-SHADOW-1111"},                // closed shadow root
	{"s2", "SECRET-SHADOWSCRIPT-1112"},         // closed shadow root, set by script, CC-CSC
	{"f", "SECRET-SRCDOC-1109"},                // srcdoc iframe
	{"g", "SECRET-SRCDOCSCRIPT-1113"},          // srcdoc iframe, set by script
	{"x", "SECRET-XORIGIN-1114"},               // cross-origin iframe
	{"xt", "4000056655665556"},                 // cross-origin textarea
	{"xs", "SECRET-XORIGINSCRIPT-1115"},        // cross-origin, set by script
	{"run-typed", "SECRET-RUNTYPED-1117"},      // typed by a `domscope run` step
	{"run-typed-pw", "SECRET-RUNTYPEDPW-1118"}, // typed by a `domscope run` step
}

// privacySecrets are the strings no output may hold:
//   - every variant's secret.
//   - the other parts of the textareas' values.
//   - five bullets. A password's value in the AX tree is one bullet per
//     character, which tells its length. Mask has four.
func privacySecrets() []string {
	out := []string{"SECRET-", "TEXTAREA-6011", "SECRET-TYPEDTA", "SECRET-XORIGINTA", "•••••", `\u2022\u2022\u2022\u2022\u2022`}
	for _, v := range privacyVariants {
		out = append(out, v.secret)
	}
	return out
}

// checkNoSecrets fails for each secret found in out.
func checkNoSecrets(t *testing.T, where, out string) {
	t.Helper()
	if strings.TrimSpace(out) == "" {
		t.Errorf("%s: empty output", where)
		return
	}
	for _, s := range privacySecrets() {
		if strings.Contains(out, s) {
			i := strings.Index(out, s)
			t.Errorf("%s leaks %q: …%s…", where, s, out[max(0, i-80):min(len(out), i+len(s)+40)])
		}
	}
}

// TestPrivacyEveryOutput: the values of sensitive fields of every kind
// appear in no output domscope makes. The kinds are in privacyVariants.
// The fields sit in the page, a closed shadow root, a srcdoc frame and a
// cross-origin frame. Their values are typed, served or set by script.
// The outputs checked are:
//   - the snapshot formats with every option.
//   - the binary's snapshot (--backend-ids, --stats).
//   - the binary's run (--snapshots text and json, typing into sensitive
//     fields).
//   - the export file with its raw capture.
//   - the capture opened again.
//
// Each filled field shows Mask.
func TestPrivacyEveryOutput(t *testing.T) {
	p, _, _ := capOpen(t, "privacy-variants.html?other={other}")
	capWaitFrames(t, p, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cdptest.WaitFor(t, p, `document.readyState === 'complete' && document.getElementById('srcdoc').contentDocument.getElementById('g').value !== ''`)
	for _, x := range []struct{ id, text string }{{"typed", "SECRET-TYPED-1116"}, {"typed-ta", "SECRET-TYPEDTA-5555444433332222"}} {
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('" + x.id + "').focus()"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := p.Call(ctx, "Input.insertText", map[string]any{"text": x.text}, nil); err != nil {
			t.Fatal(err)
		}
	}
	cdptest.WaitFor(t, p, `document.getElementById('typed-ta').value.endsWith('2222')`)

	// `domscope run` types two more secrets through the service, then
	// prints snapshots. The binary's other outputs come after it.
	bin := domtest.BuildProgram(t)
	ws := cdptest.Browser(t).WebSocketURL()
	script := filepath.Join(t.TempDir(), "steps.jsonl")
	steps := `{"action":"type","target":{"css":"#run-typed"},"text":"SECRET-RUNTYPED-1117"}
{"action":"type","target":{"role":"textbox","name":"Run password"},"text":"SECRET-RUNTYPEDPW-1118"}
{"action":"snapshot"}
`
	if err := os.WriteFile(script, []byte(steps), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"text", "json"} {
		out := domtest.RunProgram(t, bin, "run", "--endpoint", ws, "--target", p.TargetID(), "--snapshots", mode, script)
		checkNoSecrets(t, "run --snapshots "+mode, out)
		if !strings.Contains(out, `"success":true`) || strings.Contains(out, `"success":false`) {
			t.Errorf("run --snapshots %s: a step failed:\n%s", mode, out)
		}
	}
	cdptest.WaitFor(t, p, `document.getElementById('run-typed').value === 'SECRET-RUNTYPED-1117' && document.getElementById('run-typed-pw').value === 'SECRET-RUNTYPEDPW-1118'`)

	for _, args := range [][]string{
		{"--format", "json", "--backend-ids", "--stats"},
		{"--format", "text", "--stats"},
		{"--format", "tree", "--stats"},
	} {
		out := domtest.RunProgram(t, bin, append([]string{"snapshot", "--endpoint", ws, "--target", p.TargetID()}, args...)...)
		checkNoSecrets(t, "snapshot "+strings.Join(args, " "), out)
		for _, want := range []string{"tokens (o200k", "Shadow password", "Cross-origin code", "Frame password"} {
			if !strings.Contains(out, want) {
				t.Errorf("snapshot %v: %q is missing:\n%s", args, want, out)
			}
		}
	}

	raw := capRaw(t, p)
	snap, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkMasked(t, snap)
	for _, o := range privacyOptions() {
		sd, dec := flatten.Flatten(snap, o)
		j, err := flatten.FormatJSON(sd)
		if err != nil {
			t.Fatal(err)
		}
		checkNoSecrets(t, "json", string(j))
		checkNoSecrets(t, "text", flatten.FormatText(sd))
		checkNoSecrets(t, "tree", flatten.FormatTree(snap, dec))
	}
	var nodes strings.Builder
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		b, _ := json.Marshal([]any{n.Name, n.Text, n.Attrs, n.States, n.Role, n.Why})
		nodes.Write(b)
	})
	checkNoSecrets(t, "VirtualNode fields", nodes.String())

	// The export, with the raw capture, and the capture opened again.
	saved, err := export.NewSavedCapture(snap, dom.DefaultOptions(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "capture.json")
	if err := saved.WriteFile(file); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	zr, err := export.ExportReader(zf) // the secret is looked for in the JSON, not the gzip bytes
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	checkNoSecrets(t, "export file", string(b))
	for _, kept := range []string{"visible-plain-value", "Cross-origin code", "Shadow password", "Frame password"} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("export file: %q is missing (not secret, must stay)", kept)
		}
	}
	opened, err := export.ReadCaptureFile(file)
	if err != nil {
		t.Fatal(err)
	}
	osnap, err := opened.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	checkMasked(t, osnap)
	sd, dec := flatten.Flatten(osnap, opened.FlattenOptions())
	j, _ := flatten.FormatJSON(sd)
	checkNoSecrets(t, "open: json", string(j))
	checkNoSecrets(t, "open: text", flatten.FormatText(sd))
	checkNoSecrets(t, "open: tree", flatten.FormatTree(osnap, dec))
}

// privacyOptions are the flatten options the outputs are checked with.
// One is the default; one shows everything: values, hidden nodes, boxes,
// ids.
func privacyOptions() []dom.Options {
	all := dom.DefaultOptions()
	all.IncludeValues, all.IncludeHidden, all.IncludeBoundingBoxes, all.IncludeBackendIDs = true, true, true, true
	return []dom.Options{dom.DefaultOptions(), all}
}

// checkMasked: every variant's field is in the tree, sensitive, and shows
// Mask as its value. The plain field shows its own.
func checkMasked(t *testing.T, snap *dom.Snapshot) {
	t.Helper()
	byID := map[string]*dom.VirtualNode{}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if id := n.Attrs["id"]; id != "" && n.NodeType == dom.ElementNode {
			byID[id] = n
		}
	})
	for _, v := range privacyVariants {
		n := byID[v.id]
		switch {
		case n == nil:
			t.Errorf("field #%s is not in the tree", v.id)
		case !n.Sensitive():
			t.Errorf("field #%s is not sensitive: %v", v.id, n.Attrs)
		case n.States["value"] != dom.Mask:
			t.Errorf("field #%s: value state %q, want %q", v.id, n.States["value"], dom.Mask)
		}
	}
	if n := byID["plain"]; n == nil || n.States["value"] != "visible-plain-value" {
		t.Errorf("the plain field lost its value: %+v", n)
	}
}
