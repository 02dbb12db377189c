package script

import (
	"domscope/dom"
	"strings"
	"testing"
)

// TestParseStepRejects: every malformed step names its line and what is
// allowed. The well-formed ones pass.
func TestParseStepRejects(t *testing.T) {
	bad := []struct{ line, want string }{
		{`{"action":"click","id":"node_1","clickCount":-5}`, "clickCount -5: use 1, 2 or 3"},
		{`{"action":"click","id":"node_1","clickCount":0}`, "clickCount 0: use 1, 2 or 3"},
		{`{"action":"click","id":"node_1","clickCount":1000000}`, "clickCount 1000000: use 1, 2 or 3"},
		{`{"action":"click","id":"node_1","clickCount":1.5}`, `"clickCount" must be a whole number, not 1.5`},
		{`{"action":"click","id":"node_1"} {"action":"click"}`, "text after the step's JSON object"},
		{`{"action":"click","id":"node_1"}]`, "text after the step's JSON object"},
		{`{"action":"click","id":"node_1","text":"x"}`, `click does not use "text" (it takes id, target, button, clickCount, modifiers, force, expect, comment)`},
		{`{"action":"click","id":"node_1","colour":"x"}`, `unknown field "colour"; a step's fields are action, id`},
		{`{"action":"click","target":{"rol":"button"}}`, `unknown field "rol"`},
		{`{"action":"click","target":{"role":"button","nth":-1}}`, "nth -1: use 0"},
		{`{"action":"click"}`, `click needs a "target" (or "id")`},
		{`{"action":"click","id":"node_1","target":{"role":"button"}}`, `give either "id" or "target", not both`},
		{`{"action":"scroll","dy":2e6}`, "dy 2e+06: use a number of pixels from -1000000 to 1000000"},
		{`{"action":"scroll","dx":1e999}`, `"dx": 1e999 is out of range`},
		{`{"action":"wait","ms":-1}`, "ms -1: use 1 to 60000"},
		{`{"action":"wait","ms":600000}`, "ms 600000: use 1 to 60000"},
		{`{"action":"wait","for":{"text":"x"},"timeout":-1}`, "timeout -1: use 1 to 60000"},
		{`{"action":"wait","for":{"text":"x"},"timeout":99999999}`, "timeout 99999999: use 1 to 60000"},
		{`{"action":"wait","ms":5,"timeout":10}`, `"timeout" bounds a wait for something`},
		{`{"action":"wait","ms":5,"for":{"text":"x"}}`, `wait takes "ms" (a sleep) or something to wait for, not both`},
		{`{"action":"wait","ms":5,"text":"x"}`, `wait takes "ms" (a sleep) or something to wait for, not both`},
		{`{"action":"wait"}`, `wait needs "ms" (1 to 60000), or "for" a target query, "text", "gone", "url" or "quiet"`},
		{`{"action":"wait","text":"a","gone":"b"}`, `wait takes "text" (to appear) or "gone" (to disappear), not both`},
		{`{"action":"wait","for":{"text":"x"},"url":"y"}`, `wait "for" a query takes no "text"`},
		{`{"action":"wait","quiet":-5}`, `quiet -5: use 1 to 60000`},
		{`{"action":"wait","url":""}`, `wait for an empty text or url`},
		{`{"action":"key"}`, `key needs "key"`},
		{`{"action":"navigate"}`, `navigate needs "url"`},
		{`{"action":"fly"}`, `unknown action "fly": use one of wait, click`},
		{`{"comment":"no action"}`, `a step needs "action"`},
		{`[1]`, "a step is a JSON object"},
		{`{"action":"click",`, "not complete"},
		{`{action:click}`, "not a JSON object"},
		{"{\"action\":\"type\",\"id\":\"node_1\",\"text\":\"pass\xffword\"}", "invalid UTF-8 at byte 44"},
		{`{"action":"type","id":"node_1","text":"a\udc00b"}`, "lone surrogate"},
		{`{"action":"key","key":"\ud800"}`, "lone surrogate"},
	}
	for _, c := range bad {
		_, err := parseStep(c.line, 7)
		if err == nil {
			t.Errorf("%s: accepted", c.line)
			continue
		}
		if dom.CodeOf(err) != dom.ValidationError || !strings.Contains(err.Error(), "line 7: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant line 7 and %q", c.line, err, c.want)
		}
	}
	good := []string{
		`{"action":"click","target":{"role":"button","name":"OK"},"clickCount":2,"modifiers":["Shift"],"comment":"why"}`,
		`{"action":"Click","ID":"node_3","ClickCount":3}`,
		`{"action":"scroll","dy":-400}`,
		`{"action":"wait","ms":60000}`,
		`{"action":"wait","for":{"text":"Saved"},"timeout":5000}`,
		`{"action":"wait","text":"Saved","timeout":5000}`,
		`{"action":"wait","gone":"Loading","url":"/done","quiet":300}`,
		`{"action":"dialog","accept":true,"text":"Ada"}`,
		`{"action":"type","id":"node_4","text":""}   `,
		`{"action":"back"}`,
		`{"action":"type","id":"node_4","text":"\ud83d\ude00 \ufffd é"}`,
		`{"action":"type","id":"node_4","text":"� as written"}`,
	}
	for _, line := range good {
		if _, err := parseStep(line, 1); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	// Every action a script may use has its row of fields, and no more.
	for _, k := range scriptKinds {
		if _, ok := stepFields[k]; !ok {
			t.Errorf("action %q has no row in stepFields", k)
		}
	}
	if len(stepFields) != len(scriptKinds) {
		t.Errorf("stepFields has %d rows for %d actions", len(stepFields), len(scriptKinds))
	}
}

// TestLineReader: lines of any length and line ends of both kinds. Lines
// past MaxScriptLine are reported with their size; the next line is read
// whole.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("y", MaxScriptLine+1)
	limit := strings.Repeat("z", MaxScriptLine)
	huge := strings.Repeat("h", 3*MaxScriptLine)
	in := "a\r\nb\n\n" + limit + "\n" + long + "\r\n" + huge + "\r\nafter\nlast"
	lr := newLineReader(strings.NewReader(in))
	want := []scriptLine{{text: "a", size: 1}, {text: "b", size: 1}, {}, {text: limit, size: MaxScriptLine},
		{tooLong: true, size: MaxScriptLine + 1}, {tooLong: true, size: 3 * MaxScriptLine}, {text: "after", size: 5}, {text: "last", size: 4}}
	for i, w := range want {
		got, err := lr.next()
		if err != nil || got.tooLong != w.tooLong || got.size != w.size || got.text != w.text {
			t.Fatalf("line %d: got %v %d %q (%v), want %v %d %.10q", i+1, got.tooLong, got.size, dom.Clip(got.text, 10), err, w.tooLong, w.size, w.text)
		}
	}
	if _, err := lr.next(); err == nil {
		t.Fatalf("no EOF after the last line")
	}
}
