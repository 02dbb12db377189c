package build

import (
	"strings"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/internal/textutil"
)

// fieldValue sets States["value"] of a form field that AX gave no value
// (and the privacy step no mask). It takes the live value of an input or
// textarea from DOMSnapshot. For a single <select> it takes the selected
// option. A field inside a sensitive one never gets a value here. An
// agent must see what is in its fields, as a person would.
func (b *builder) fieldValue(i int, set func(k, v string)) {
	n, f := b.nodes[i], &b.facts[i]
	if f.redact || n.NodeType != dom.ElementNode {
		return
	}
	if _, ok := n.States["value"]; ok {
		return
	}
	ti := b.targets[f.target]
	switch n.Tag {
	case "input":
		switch strings.ToLower(strings.TrimSpace(n.Attrs["type"])) {
		case "checkbox", "radio", "button", "submit", "reset", "image", "hidden", "file":
			return
		}
		// DOMSnapshot lists every input's live value, empty ones too.
		// Without it the served value is the best there is.
		v, ok := ti.Values[n.BackendID]
		if !ok {
			v = n.Attrs["value"]
		}
		set("value", textutil.Truncate(v, dom.MaxNameLen))
	case "textarea":
		set("value", textutil.Truncate(ti.Values[n.BackendID], dom.MaxNameLen))
	case "select":
		if _, multi := n.Attrs["multiple"]; multi {
			return // its options are listed, each marked selected or not
		}
		if o := selectedOption(n, ti); o != nil {
			v := o.Attrs["label"]
			if v == "" {
				v = subtreeText(o, dom.MaxNameLen)
			}
			set("value", textutil.Truncate(textutil.Collapse(v), dom.MaxNameLen))
		}
	}
}

// selectedOption is the first option of sel (directly or in an optgroup)
// that DOMSnapshot reports selected.
func selectedOption(sel *dom.VirtualNode, ti *cdpjson.Target) *dom.VirtualNode {
	if len(ti.Selected) == 0 {
		return nil
	}
	for _, c := range sel.Children {
		switch c.Tag {
		case "option":
			if ti.Selected[c.BackendID] {
				return c
			}
		case "optgroup":
			for _, o := range c.Children {
				if o.Tag == "option" && ti.Selected[o.BackendID] {
					return o
				}
			}
		}
	}
	return nil
}
