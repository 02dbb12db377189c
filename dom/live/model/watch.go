package model

import (
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

// MaxFlashText bounds a flashed node's text.
const MaxFlashText = 120

// RoleText is n's role (its role attribute) and its text, masked as the
// view is: nothing from inside a sensitive field, no known secret.
func (m *Model) RoleText(n *cdpjson.Node) (string, string) {
	role := ""
	if n.NodeType == dom.ElementNode {
		role, _ = attrOf(n, "role")
	}
	if m.fieldOf(n) != nil {
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
	for _, s := range append(m.secrets, m.urlSecrets...) {
		if len(s) >= 3 {
			text = strings.ReplaceAll(text, s, dom.Mask)
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
