package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/export"
)

// secretPage is formPage plus the two kinds of sensitive field. They are a
// password input and a type=text input whose autocomplete says it holds a
// password (a show-password toggle). It also has a card-expiry <select>.
func secretPage() *dom.Snapshot {
	s := formPage("Sign in")
	f := &fixture{s: s, next: 200}
	form := s.Node("node_7")
	f.add(form, sem(el("input", "id", "pw", "type", "password"), "textbox", "Password"))
	f.add(form, sem(el("input", "id", "pw2", "type", "text", "autocomplete", "username NEW-Password"), "textbox", "New password"))
	f.add(form, sem(el("select", "autocomplete", "cc-exp-month"), "combobox", "Expiry month"))
	return s
}

// Text typed into a sensitive field is echoed as • while typed. It is
// masked in the busy line, the details pane, an error message from the
// page and the export. The page still receives it in clear.
func TestTypedSecretIsMasked(t *testing.T) {
	for _, tc := range []struct {
		node, secret string
		keys         func(t *testing.T, m *Model, secret string)
		want         dom.Action
	}{
		{"node_201", "UiPwSecret-8888", func(t *testing.T, m *Model, s string) {
			press(t, m, k('t'))
			typeText(t, m, s)
		}, dom.Action{Kind: "type", ID: "node_201", Text: "UiPwSecret-8888\n"}},
		{"node_202", "NewPw-Sécret-77", func(t *testing.T, m *Model, s string) {
			press(t, m, k('t'))
			typeText(t, m, s)
		}, dom.Action{Kind: "type", ID: "node_202", Text: "NewPw-Sécret-77\n"}},
		{"node_203", "SelMonth-0931", func(t *testing.T, m *Model, s string) {
			press(t, m, k('s'))
			typeText(t, m, s)
		}, dom.Action{Kind: "select", ID: "node_203", Value: "SelMonth-0931"}},
	} {
		t.Run(tc.node, func(t *testing.T) {
			a := newTestActor(secretPage())
			// the page's answer repeats what was typed: it must not get through
			a.result = dom.ActionResult{Error: dom.Errorf(dom.ValidationError, nil, "typed %q but the field holds %q", tc.secret, tc.secret+"x")}
			m := started(t, a, 140, 40)
			if !m.panes.tree.Select(tc.node) {
				t.Fatalf("cannot select %s", tc.node)
			}
			tc.keys(t, m, tc.secret)
			s := plainScreen(m)
			if strings.Contains(s, tc.secret) || strings.Contains(s, tc.secret[:4]) {
				t.Fatalf("the prompt shows the secret while typing:\n%s", s)
			}
			if dots := strings.Repeat("•", len([]rune(tc.secret))); !strings.Contains(s, dots) {
				t.Errorf("the prompt does not echo one • per character:\n%s", s)
			}
			if tc.want.Kind == "type" {
				press(t, m, altEnterKey)
			} else {
				press(t, m, enterKey)
			}
			if len(a.actions) != 1 || !reflect.DeepEqual(a.actions[0], tc.want) {
				t.Fatalf("the page got %+v, want %+v", a.actions, tc.want)
			}
			s = plainScreen(m)
			if strings.Contains(s, tc.secret) || strings.Contains(m.status.lastDesc, tc.secret) || strings.Contains(m.status.flash, tc.secret) {
				t.Fatalf("the secret is on screen after the action (desc %q):\n%s", m.status.lastDesc, s)
			}
			if !strings.Contains(s, "last action: "+string(tc.want.Kind)+` "••••`) {
				t.Errorf("details pane lacks the masked action:\n%s", s)
			}
			if m.status.last == nil || m.status.last.Error == nil || strings.Contains(m.status.last.Error.Message, tc.secret) || !strings.Contains(m.status.last.Error.Message, dom.Mask) {
				t.Errorf("error message not masked: %+v", m.status.last.Error)
			}

			path := filepath.Join(t.TempDir(), "cap.json")
			press(t, m, k('e'))
			m.prompt().input.SetValue(path)
			press(t, m, enterKey)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("export: %v (flash %q)", err, m.status.flash)
			}
			if strings.Contains(string(b), tc.secret) {
				t.Fatalf("the export holds the secret")
			}
			c, err := export.ReadCaptureFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(c.LastActionDesc, string(tc.want.Kind)+` "••••`) {
				t.Errorf("lastActionDesc = %q", c.LastActionDesc)
			}
		})
	}
}

// Typing into an ordinary field still shows the text everywhere.
func TestTypedTextInOrdinaryFieldIsShown(t *testing.T) {
	a := newTestActor(secretPage())
	m := started(t, a, 140, 40)
	m.panes.tree.Select("node_10")
	press(t, m, k('t'))
	typeText(t, m, "plain@example.com")
	if !strings.Contains(plainScreen(m), "› plain@example.com") {
		t.Errorf("the prompt hides ordinary text:\n%s", plainScreen(m))
	}
	press(t, m, enterKey)
	if m.status.lastDesc != `type "plain@example.com" on node_10` {
		t.Errorf("lastDesc = %q", m.status.lastDesc)
	}
}
