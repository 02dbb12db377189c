package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The go-to prompt starts with the page's URL selected. The first typed
// character or paste replaces it; keys that move or edit keep it.
func TestGotoPromptSelection(t *testing.T) {
	const url = "http://127.0.0.1:8080/form.html"
	for _, c := range []struct {
		name string
		keys []tea.Msg
		want string
	}{
		{"typed", []tea.Msg{k('x'), k('y')}, "xy"},
		{"pasted", []tea.Msg{tea.PasteMsg{Content: "example.com"}}, "example.com"},
		{"space", []tea.Msg{spaceKey}, " "},
		{"end then typed", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyEnd}, k('x')}, url + "x"},
		{"left then typed", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyLeft}, k('x')}, url[:len(url)-1] + "x" + url[len(url)-1:]},
		{"backspace", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyBackspace}}, url[:len(url)-1]},
		{"ctrl+a then typed", []tea.Msg{tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}, k('x')}, "x" + url},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := started(t, newTestActor(formPage("Sign up")), 120, 40)
			press(t, m, k('g'))
			p, ok := find[*promptLayer](m)
			if !ok || p.input.Value() != url || !p.selected {
				t.Fatalf("g did not open the go-to prompt with the URL selected")
			}
			for _, msg := range c.keys {
				_, cmd := m.Update(msg)
				settle(t, m, cmd)
			}
			if got := p.input.Value(); got != c.want {
				t.Errorf("prompt holds %q, want %q", got, c.want)
			}
		})
	}
}

// The go-to prompt reads an address as the page's links do: a relative
// path resolves against the page, a bare host gets its scheme.
func TestGotoResolves(t *testing.T) {
	for typed, want := range map[string]string{
		"b.html":       "http://127.0.0.1:8080/b.html",
		"/x/y":         "http://127.0.0.1:8080/x/y",
		"example.com":  "https://example.com",
		"localhost:99": "http://localhost:99",
	} {
		a := newTestActor(formPage("Sign up"))
		m := started(t, a, 120, 40)
		press(t, m, k('g'))
		_, cmd := m.Update(tea.PasteMsg{Content: typed})
		settle(t, m, cmd)
		press(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
		a.mu.Lock()
		var got string
		for _, act := range a.actions {
			if act.Kind == "navigate" {
				got = act.URL
			}
		}
		a.mu.Unlock()
		if got != want {
			t.Errorf("g %q navigated to %q, want %q", typed, got, want)
		}
	}
}
