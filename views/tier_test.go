package views

import (
	"testing"

	"domscope/dom"
	"domscope/themes"
)

// Each engine tier gets its own style; hidden wins over any tier.
func TestTierInk(t *testing.T) {
	st := themes.New(themes.Dark(), false)
	tests := []struct {
		tier   dom.Tier
		hidden bool
		want   themes.Ink
	}{
		{dom.Semantic, false, st.Semantic},
		{dom.NonSemantic, false, st.NonSemantic},
		{dom.Structural, false, st.Structural},
		{dom.Semantic, true, st.Hidden},
		{dom.NonSemantic, true, st.Hidden},
	}
	for _, tc := range tests {
		if got := TierInk(st, tc.tier, tc.hidden).Render("x"); got != tc.want.Render("x") {
			t.Errorf("TierInk(%v, hidden=%v) = %q, want %q", tc.tier, tc.hidden, got, tc.want.Render("x"))
		}
	}
}
