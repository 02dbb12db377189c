package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// Typing (or picking an option) on a <label> goes to its control, as
// Playwright's fill does. It works by for, by nesting, in a shadow root.
// The page's own fields hold the text. A label of nothing takes no text.
func TestTypeOnLabel(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/labels.html", Config{})
	label := func(text string) string {
		t.Helper()
		n := findNode(snap(t, svc), func(n *VirtualNode) bool {
			return n.Tag == "label" && len(n.Children) > 0 && strings.TrimSpace(n.Children[0].Text) == text
		})
		if n == nil {
			t.Fatalf("no label %q", text)
		}
		return n.ID
	}
	for _, c := range []struct{ label, text, field string }{
		{"Email", "ada@example.com", "document.getElementById('email').value"},
		{"Name", "Ada Lovelace", "document.getElementById('name').value"},
		{"Inner", "in the shadow", "document.getElementById('host').shadowRoot.getElementById('inner').value"},
	} {
		mustOK(t, svc.Do(ctx(t), Action{Kind: "type", ID: label(c.label), Text: c.text}))
		if got := evalString(t, p, c.field); got != c.text {
			t.Errorf("typed %q on the %s label: the field holds %q", c.text, c.label, got)
		}
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "select", ID: label("Size"), Value: "Medium"}))
	if got := evalString(t, p, "document.getElementById('size').value"); got != "Medium" {
		t.Errorf("picked Medium on the Size label: the select holds %q", got)
	}

	// A password's label: the page gets the text, the result never says it.
	const secret = "LabelSecret-5150"
	id := label("Password")
	if n := svc.Current().Node(id); n == nil || !n.TakesSecret() {
		t.Errorf("what is typed on the Password label is not secret")
	}
	res := svc.Do(ctx(t), Action{Kind: "type", ID: id, Text: secret})
	mustOK(t, res)
	if got := evalString(t, p, "document.getElementById('pw').value"); got != secret {
		t.Errorf("typed on the Password label: the field holds %q", got)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), secret) {
		t.Errorf("the result holds the secret: %s", b)
	}

	for _, text := range []string{"Dangling", "Just text"} {
		mustCode(t, svc.Do(ctx(t), Action{Kind: "type", ID: label(text), Text: "x"}), NotInteractable)
	}
}
