package export

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/dom"
)

// scrubSession masks what a hand-edited session log typed into sensitive
// fields. It uses the clues a log has without the page:
//   - a target that names a secret.
//   - the view after the step showing the node masked.
//   - the focus left in such a field.
//   - a value the raw capture held in one.
//
// Other text stays.
func TestScrubSessionClues(t *testing.T) {
	c := &SavedCapture{
		LastActionDesc: `type "PlainPw-1" on node_7`,
		Text:           `[7] textbox "Password": PlainPw-1`,
		Session: []dom.SessionStep{
			{Step: json.RawMessage(`{"action":"type","target":{"role":"textbox","name":"Search"},"text":"shoes"}`), Desc: `type "shoes" on node_3`},
			{Step: json.RawMessage(`{"action":"type","target":{"role":"textbox","name":"Password"},"text":"PlainPw-1\n"}`), Desc: `type "PlainPw-1\n" on node_7`,
				After: "[7] textbox \"Password\": PlainPw-1\n[9] button \"Go\"", Diff: []string{`+ [7] textbox "Password": PlainPw-1`}},
			{Step: json.RawMessage(`{"action":"key","key":"x"}`), Desc: "key x"},
			{Step: json.RawMessage(`{"action":"type","target":{"id":"node_12"},"text":"123456"}`), Desc: `type "123456" on node_12`,
				After: "  [12] textbox \"Code\": " + dom.Mask, Result: &dom.ActionResult{ID: "node_12"}},
			{Step: json.RawMessage(`{"action":"type","target":{"css":"#card-number"},"text":"4111111111111111"}`)},
			{Step: json.RawMessage(`{"action":"type","target":{"role":"textbox","name":"Note"},"text":"RawSecret-9"}`), Desc: `type "RawSecret-9" on node_20`},
			{Step: json.RawMessage(`{"action":"navigate","url":"https://u:pw@h.example/?token=abc"}`), Desc: "navigate https://u:pw@h.example/?token=abc", URL: "https://u:pw@h.example/?sid=x"},
		},
	}
	c.safeURLs()
	c.scrubSession(nil, []string{"RawSecret-9"})
	b, _ := json.Marshal(c)
	for _, leak := range []string{"PlainPw-1", `"key":"x"`, "123456", "4111111111111111", "RawSecret-9", "u:pw", "abc", "sid=x"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("%s is left in %s", leak, b)
		}
	}
	if !strings.Contains(string(c.Session[0].Step), `"text":"shoes"`) || c.Session[0].Desc != `type "shoes" on node_3` {
		t.Errorf("a search was masked: %s %q", c.Session[0].Step, c.Session[0].Desc)
	}
	if !strings.Contains(string(c.Session[1].Step), `"text":"`+dom.Mask+`\n"`) || !strings.Contains(string(c.Session[1].Step), withheldOnOpen) {
		t.Errorf("the password step: %s", c.Session[1].Step)
	}
}
