package model

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// Watcher sees the model's DOM events as they are applied. Its methods
// run under the model's lock, so they may read it through Parent and
// RoleText but not call what takes the lock.
type Watcher interface {
	Inserted(m *Model, n *cdpjson.Node, now time.Time)
	Removing(m *Model, n *cdpjson.Node, now time.Time)
	Attr(m *Model, n *cdpjson.Node, name, value string, set bool, now time.Time)
	Changed(m *Model, n *cdpjson.Node, now time.Time)
	// Reported takes what the page's flash recorder sent of elements
	// as they went, after the removals it tells of.
	Reported(m *Model, gone []Gone)
}

// FlashBinding names the binding the page's flash recorder calls. Its
// calls come in the DOM events' stream (Runtime.bindingCalled).
const FlashBinding = "domscopeFlash"

// Gone is an element that left the page soon after it came, as the
// page's flash recorder saw it: how long it lived by the page's clock,
// and its subtree (only its tag and id when whole: Chrome's event had
// its children).
type Gone struct {
	Ms    float64       `json:"ms"`
	Whole bool          `json:"whole"`
	Node  *cdpjson.Node `json:"node"`
}

// reported hands a call of the flash recorder to the watcher.
func (m *Model) reported(ev dom.EventMessage) {
	var e struct {
		Name    string `json:"name"`
		Payload string `json:"payload"`
	}
	if m.w == nil || m.broken != "" || json.Unmarshal(ev.Params, &e) != nil || e.Name != FlashBinding {
		return
	}
	var gone []Gone
	if json.Unmarshal([]byte(e.Payload), &gone) != nil {
		return
	}
	m.w.Reported(m, gone)
}

// Watch makes w see the model's events from now on.
func (m *Model) Watch(w Watcher) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.w = w
}

// Parent is n's parent in the model (nil for the root). Only a Watcher,
// under the model's lock, may ask.
func (m *Model) Parent(n *cdpjson.Node) *cdpjson.Node { return m.parent[n.NodeID] }

// InUserAgentShadow reports whether n is inside a user-agent shadow
// root: an input's or textarea's inner text, which is its value. Text
// typed there and cleared by the page (a todo field on Enter) is the
// action's own input, not a message that came and went. Only a Watcher,
// under the model's lock, may ask.
func (m *Model) InUserAgentShadow(n *cdpjson.Node) bool {
	for x, depth := n, 0; x != nil && depth < 64; x, depth = m.parent[x.NodeID], depth+1 {
		if x.ShadowRootType == "user-agent" {
			return true
		}
	}
	return false
}

// MaxFlashText bounds a flashed node's text.
const MaxFlashText = 120

// RoleText is n's role (its role attribute) and its text, masked as the
// view is: nothing from inside a sensitive field, no known secret.
func (m *Model) RoleText(n *cdpjson.Node) (string, string) {
	return roleText(n, m.fieldOf(n) != nil, m.secrets, m.urlSecrets)
}

// GoneRoleText is RoleText for a subtree that left the page, as the
// model knows it now: in a field when node is, with today's secrets.
// It may be called later, without the model's lock.
func (m *Model) GoneRoleText(node *cdpjson.Node) func(*cdpjson.Node) (string, string) {
	inField := m.fieldOf(node) != nil
	secrets, urls := slices.Clone(m.secrets), slices.Clone(m.urlSecrets)
	return func(n *cdpjson.Node) (string, string) { return roleText(n, inField || n.Sensitive(), secrets, urls) }
}

func roleText(n *cdpjson.Node, inField bool, secrets, urlSecrets []string) (string, string) {
	role := ""
	if n.NodeType == dom.ElementNode {
		role, _ = attrOf(n, "role")
	}
	if inField {
		return role, ""
	}
	var b strings.Builder
	var walk func(x *cdpjson.Node, depth int)
	walk = func(x *cdpjson.Node, depth int) {
		if x == nil || depth > 64 || b.Len() > 4*MaxFlashText {
			return
		}
		if x.NodeType == dom.TextNode {
			b.WriteString(x.NodeValue)
			b.WriteByte(' ')
			return
		}
		switch strings.ToLower(x.LocalName) {
		case "script", "style", "template":
			return
		}
		if x.Sensitive() {
			return
		}
		for _, r := range x.ShadowRoots {
			walk(r, depth+1)
		}
		for _, c := range x.Children {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	text := strings.Join(strings.Fields(b.String()), " ")
	for _, group := range [][]string{secrets, urlSecrets} {
		for _, s := range group {
			if len(s) >= 3 {
				text = strings.ReplaceAll(text, s, dom.Mask)
			}
		}
	}
	return role, dom.Clip(text, MaxFlashText)
}

func attrOf(n *cdpjson.Node, name string) (string, bool) {
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if strings.EqualFold(n.Attributes[i], name) {
			return n.Attributes[i+1], true
		}
	}
	return "", false
}
