package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestAddress(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"127.0.0.1:8766/x", "http://127.0.0.1:8766/x"},
		{"localhost:3000", "http://localhost:3000"},
		{"localhost", "http://localhost"},
		{"app.localhost/a", "http://app.localhost/a"},
		{"10.0.0.5/admin", "http://10.0.0.5/admin"},
		{"[::1]:8080/", "http://[::1]:8080/"},
		{"example.com:8443/a?b=c", "http://example.com:8443/a?b=c"},
		{"example.com", "https://example.com"},
		{"en.wikipedia.org/wiki/Go", "https://en.wikipedia.org/wiki/Go"},
		{"  example.com/a  ", "https://example.com/a"},
		{"http://example.com", "http://example.com"},
		{"HTTPS://example.com", "HTTPS://example.com"},
		{"file:///tmp/a.html", "file:///tmp/a.html"},
		{"/tmp/a.html", "file:///tmp/a.html"},
		{"data:text/html,<p>hi", "data:text/html,<p>hi"},
		{"about:blank", "about:blank"},
		{"chrome://version", "chrome://version"},
		{"", ""},
	} {
		if got := address(c.in); got != c.want {
			t.Errorf("address(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

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
