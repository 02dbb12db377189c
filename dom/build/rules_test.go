package build_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
)

func TestTierRules(t *testing.T) {
	big := func() *fixture.Node {
		n := fixture.El("div", []string{"id", "t"})
		for i := 0; i < 40; i++ {
			n.Kids = append(n.Kids, fixture.El("span", nil, fixture.Txt("x")))
		}
		n.Listener = true
		return n
	}
	cases := []struct {
		name string
		node func() *fixture.Node
		want string // Why; "" = Structural
		rule string // the rule to switch off ("" = none)
	}{
		{"onclick", func() *fixture.Node {
			return fixture.El("div", []string{"id", "t", "onclick", "go()"}, fixture.Txt("Go"))
		}, build.RuleOnclick, build.RuleOnclick},
		{"inline onmousedown", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "onmousedown", "x()"}) }, build.RuleOnclick, build.RuleOnclick},
		{"onload is not an action", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "onload", "x()"}) }, "", ""},
		{"listener", func() *fixture.Node {
			n := fixture.El("div", []string{"id", "t"}, fixture.Txt("L"))
			n.Listener = true
			return n
		}, build.RuleListener, build.RuleListener},
		{"listener on a big delegating container", big, "", ""},
		{"cursor pointer", func() *fixture.Node {
			return fixture.El("span", []string{"id", "t"}, fixture.Txt("P")).Style("cursor", "pointer")
		}, build.RuleCursorPointer, build.RuleCursorPointer},
		{"tabindex 0", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "tabindex", "0"}) }, build.RuleTabindex, build.RuleTabindex},
		{"tabindex -1", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "tabindex", "-1"}) }, "", ""},
		{"contenteditable", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "contenteditable", "true"}) }, build.RuleEditable, build.RuleEditable},
		{"contenteditable false", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "contenteditable", "false"}) }, "", ""},
		{"role attr", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "role", "button"}) }, build.RuleRoleAttr, build.RuleRoleAttr},
		{"non-interactive role attr", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "role", "note"}) }, "", ""},
		{"data-testid", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "data-testid", "card"}) }, build.RuleTestID, build.RuleTestID},
		{"data-cy", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "data-cy", "card"}) }, build.RuleTestID, build.RuleTestID},
		{"ng-click", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "ng-click", "go()"}) }, build.RuleFramework, build.RuleFramework},
		{"@click", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "@click", "go"}) }, build.RuleFramework, build.RuleFramework},
		{"class btn", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "class", "x btn-primary"}) }, build.RuleClassWords, build.RuleClassWords},
		{"class linkedin is not a word match", func() *fixture.Node { return fixture.El("div", []string{"id", "t", "class", "linkedin"}) }, "", ""},
		{"native control without AX", func() *fixture.Node { return fixture.El("button", []string{"id", "t"}, fixture.Txt("B")) }, build.RuleNativeTag, build.RuleNativeTag},
		{"semantic beats heuristics", func() *fixture.Node {
			return fixture.El("button", []string{"id", "t", "onclick", "x"}, fixture.Txt("B")).AX("button", "B")
		}, "ax:button", ""},
		{"generic AX role is not semantic", func() *fixture.Node { return fixture.El("div", []string{"id", "t"}).AX("generic", "") }, "", ""},
		{"ignored AX node with onclick", func() *fixture.Node {
			return fixture.El("div", []string{"id", "t", "onclick", "x"}).AX("-", "")
		}, build.RuleOnclick, build.RuleOnclick},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fixture.MustBuild(t, fixture.Page(c.node()), build.Options{})
			n := fixture.Find(s, fixture.ByAttr("id", "t"))
			if n == nil {
				t.Fatal("node not built")
			}
			checkTier(t, n, c.want)
			if c.rule == "" {
				return
			}
			s = fixture.MustBuild(t, fixture.Page(c.node()), build.Options{Disabled: map[string]bool{c.rule: true}})
			n = fixture.Find(s, fixture.ByAttr("id", "t"))
			if n.Why == c.want {
				t.Errorf("with %s off the node is still %s", c.rule, n.Why)
			}
		})
	}
}

func checkTier(t *testing.T, n *dom.VirtualNode, want string) {
	t.Helper()
	switch {
	case want == "":
		if n.Tier != dom.Structural {
			t.Errorf("tier %v (%s), want structural", n.Tier, n.Why)
		}
	case want[:3] == "ax:":
		if n.Tier != dom.Semantic || n.Why != want {
			t.Errorf("got %v %s, want semantic %s", n.Tier, n.Why, want)
		}
	default:
		if n.Tier != dom.NonSemantic || n.Why != want {
			t.Errorf("got %v %s, want non-semantic %s", n.Tier, n.Why, want)
		}
	}
}

func TestCursorPointerOnlyAtTheStartOfARegion(t *testing.T) {
	inner := fixture.El("span", []string{"id", "inner"}, fixture.Txt("x")).Style("cursor", "pointer")
	outer := fixture.El("div", []string{"id", "outer"}, inner).Style("cursor", "pointer")
	s := fixture.MustBuild(t, fixture.Page(outer), build.Options{})
	if n := fixture.Find(s, fixture.ByAttr("id", "outer")); n.Why != build.RuleCursorPointer {
		t.Errorf("outer: %s", n.Why)
	}
	if n := fixture.Find(s, fixture.ByAttr("id", "inner")); n.Tier != dom.Structural {
		t.Errorf("inner under a pointer parent: %s", n.Why)
	}
}

func TestShortRuleNames(t *testing.T) {
	s := fixture.MustBuild(t, fixture.Page(fixture.El("div", []string{"id", "t", "onclick", "x"})), build.Options{Disabled: map[string]bool{"onclick": true}})
	if n := fixture.Find(s, fixture.ByAttr("id", "t")); n.Tier != dom.Structural {
		t.Errorf("short name did not switch the rule off: %s", n.Why)
	}
}

func TestEveryTierRuleIsListed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range build.TierRules() {
		if r.Kind != "tier" || r.Doc == "" || seen[r.Name] {
			t.Errorf("bad rule %+v", r)
		}
		seen[r.Name] = true
	}
	for _, name := range []string{build.RuleOnclick, build.RuleListener, build.RuleCursorPointer, build.RuleTabindex, build.RuleEditable, build.RuleRoleAttr, build.RuleTestID, build.RuleFramework, build.RuleClassWords} {
		if !seen[name] {
			t.Errorf("%s not listed", name)
		}
	}
}
