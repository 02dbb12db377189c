package views

import (
	"domscope/dom"
	"domscope/themes"
)

// TierInk is the style of a node's tier. The mapping lives here, not in
// themes. So themes knows tiers by name only and imports nothing of the
// engine. Hidden nodes are dimmed whatever their tier.
func TierInk(st themes.Styles, t dom.Tier, hidden bool) themes.Ink {
	if hidden {
		return st.Hidden
	}
	switch t {
	case dom.Semantic:
		return st.Semantic
	case dom.NonSemantic:
		return st.NonSemantic
	}
	return st.Structural
}
