package dom

import (
	"strings"
	"testing"
)

// TestPrivacy: the values of password and cc-* fields appear nowhere in the
// tree or any output, even when the capture holds them (value attribute,
// AX value, the text inside the field's user-agent shadow root).
func TestPrivacy(t *testing.T) {
	const pw, cc, cvc = "hunter2secret", "4111111111111111", "987"
	field := func(attrs []string, secret string) *tn {
		n := el("input", attrs,
			&tn{tag: "#shadow-root", shadow: "user-agent", kids: []*tn{el("div", nil, txt(secret))}}).ax("textbox", "Field")
		n.value = secret
		return n
	}
	root := page(el("form", nil,
		field([]string{"type", "password", "value", pw}, pw),
		field([]string{"autocomplete", "billing cc-number", "value", cc}, cc),
		field([]string{"autocomplete", "cc-csc", "value", cvc, "type", "TEXT"}, cvc),
		el("input", []string{"id", "plain", "value", "visible-value"}).ax("textbox", "Plain"),
	))
	s := mustBuild(t, root, BuildOptions{})
	o := DefaultOptions()
	o.IncludeValues, o.IncludeHidden = true, true
	sd, d := Flatten(s, o)
	j, _ := FormatJSON(sd)
	outs := map[string]string{"json": string(j), "text": FormatText(sd), "tree": FormatTree(s, d)}
	for _, n := range s.ByID {
		var b strings.Builder
		b.WriteString(n.Name + n.Text)
		for k, v := range n.Attrs {
			b.WriteString(k + v)
		}
		for k, v := range n.States {
			b.WriteString(k + v)
		}
		outs["node "+n.ID] = b.String()
	}
	for where, s := range outs {
		for _, secret := range []string{pw, cc, cvc} {
			if strings.Contains(s, secret) {
				t.Errorf("%s leaks %q", where, secret)
			}
		}
	}
	if !strings.Contains(outs["json"], "visible-value") {
		t.Error("an ordinary field lost its value with IncludeValues")
	}
}
