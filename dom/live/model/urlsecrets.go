package model

import (
	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
	"domscope/dom/urls"
)

// A capture hides the credentials its URLs hold in every string
// (capture.ScrubURLs). The live model keeps them (urlSecrets) and hides
// them in what the page shows later too. It learns those that later
// URLs bring: an address history.pushState gave, a link inserted, an
// out-of-process frame read again. It forgets none: a link removed
// leaves its credential hidden, which a capture would show again.

// learnURLSecrets makes the absolute URLs the refresh brought safe, as a
// capture does with every string that is one: in the changed subtrees
// (dirty, by node id) and the AX facts fetched (ax). It learns the
// credentials they held, and those of the page's address and of the
// frames (found). It reports whether it changed a string or learnt a
// credential. m.mu is held.
func (m *Model) learnURLSecrets(address string, dirty map[int64]bool, ax map[int64]*cdpjson.AXNode, found []string) bool {
	more := append(urls.Secrets(address), found...)
	changed := false
	safe := func(s string) string {
		out, hid := capture.SafeURLString(s)
		if out != s {
			changed = true
			more = append(more, hid...)
		}
		return out
	}
	for id := range dirty {
		n := m.byNode[id]
		if n == nil {
			continue
		}
		n.Each(func(x *cdpjson.Node) {
			x.NodeValue = safe(x.NodeValue)
			for i := 1; i < len(x.Attributes); i += 2 {
				x.Attributes[i] = safe(x.Attributes[i])
			}
		})
	}
	for _, a := range ax {
		a.Name, a.Value = safe(a.Name), safe(a.Value)
		for i := range a.Properties {
			a.Properties[i].Value = safe(a.Properties[i].Value)
		}
	}
	if len(more) == 0 {
		return changed
	}
	merged := capture.MergeURLSecrets(m.urlSecrets, more)
	learnt := len(merged) != len(m.urlSecrets)
	m.urlSecrets = merged
	return learnt || changed
}

// hideURLSecrets hides the known URL credentials in the model, the page
// and its frames, as a capture does. It reports whether it hid any.
// m.mu is held.
func (m *Model) hideURLSecrets() bool {
	hid := false
	hide := func(s string) string {
		if s == dom.Mask {
			return s
		}
		if h := capture.HideURLSecrets(s, m.urlSecrets); h != s {
			hid = true
			return h
		}
		return s
	}
	for _, t := range append([]*cdpjson.Target{m.ti}, m.frames...) {
		if t.Root != nil {
			t.Root.Each(func(x *cdpjson.Node) {
				x.NodeValue = hide(x.NodeValue)
				for i := 1; i < len(x.Attributes); i += 2 {
					x.Attributes[i] = hide(x.Attributes[i])
				}
			})
		}
		for _, a := range t.AX {
			a.Name, a.Value = hide(a.Name), hide(a.Value)
			for i := range a.Properties {
				a.Properties[i].Value = hide(a.Properties[i].Value)
			}
		}
		for i, s := range t.Strings {
			t.Strings[i] = hide(s)
		}
		for id, v := range t.Values {
			t.Values[id] = hide(v)
		}
	}
	m.raw.Title = hide(m.raw.Title)
	return hid
}
