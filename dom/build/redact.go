package build

import (
	"maps"

	"domscope/dom"
)

// The builder's side of privacy. Capture already removed what sensitive
// fields hold (capture.Scrub). These make Build safe on its own for a
// capture that was not scrubbed. That may be a file from an older
// domscope, a test or a fuzz input. Nothing a sensitive field holds
// reaches a VirtualNode.

// redactNode clears what node n holds and remembers it as a secret: its
// value attribute and its text. n is a sensitive field, or a node inside
// the one at preorder index field. It reports whether it cleared anything
// non-empty. n is not in b.nodes yet.
func (b *builder) redactNode(n *dom.VirtualNode, field int32) bool {
	had := false
	if v, ok := n.Attrs["value"]; ok {
		if v != dom.Mask {
			b.secrets = append(b.secrets, v)
		}
		n.Attrs = maps.Clone(n.Attrs) // it may be the previous tree's
		delete(n.Attrs, "value")
		had = v != ""
	}
	if n.Text != "" {
		b.secrets = append(b.secrets, n.Text)
		n.Text = ""
		had = true
	}
	if had && field >= 0 && int(field) < len(b.facts) && n.NodeType != dom.CommentNode {
		b.facts[field].filled = true // text or a value below the field
	}
	return had
}

// maskedValue sets a sensitive field's value state. It is Mask when the
// capture shows the field holds something (its AX value, value attribute
// or text). It is never the value itself.
func (b *builder) maskedValue(i int) {
	n, f := b.nodes[i], &b.facts[i]
	if n.States != nil {
		delete(n.States, "value")
		delete(n.States, "valuetext")
	}
	if f.ax != nil && f.ax.Value != "" {
		if f.ax.Value != dom.Mask {
			b.secrets = append(b.secrets, f.ax.Value)
		}
		f.filled = true
	}
	if !f.filled {
		return
	}
	if n.States == nil {
		n.States = map[string]string{}
	}
	n.States["value"] = dom.Mask
}

// scrubSecrets removes the secrets found while building from every string
// of every node. A label, a title or a parent's name can repeat a field's
// value. It costs nothing when the capture was scrubbed.
func (b *builder) scrubSecrets() {
	secrets := dom.CleanSecrets(b.secrets)
	if len(secrets) == 0 {
		return
	}
	clean := func(s string) string {
		for _, sec := range secrets {
			s = dom.ScrubString(s, sec)
		}
		return s
	}
	b.snap.Title = clean(b.snap.Title)
	for _, n := range b.nodes {
		n.Name, n.Text = clean(n.Name), clean(n.Text)
		// An attribute map may be the previous tree's: it is copied
		// before it changes.
		var attrs map[string]string
		for k, v := range n.Attrs {
			if c := clean(v); c != v {
				if attrs == nil {
					attrs = maps.Clone(n.Attrs)
				}
				attrs[k] = c
			}
		}
		if attrs != nil {
			n.Attrs = attrs
		}
		var states map[string]string
		for k, v := range n.States {
			if c := clean(v); v != dom.Mask && c != v {
				if states == nil {
					states = maps.Clone(n.States)
				}
				states[k] = c
			}
		}
		if states != nil {
			n.States = states
		}
	}
}
