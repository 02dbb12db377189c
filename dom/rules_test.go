package dom

import "testing"

func TestTierRules(t *testing.T) {
	big := func() *tn {
		n := el("div", []string{"id", "t"})
		for i := 0; i < 40; i++ {
			n.kids = append(n.kids, el("span", nil, txt("x")))
		}
		n.listener = true
		return n
	}
	cases := []struct {
		name string
		node func() *tn
		want string // Why; "" = Structural
		rule string // the rule to switch off ("" = none)
	}{
		{"onclick", func() *tn { return el("div", []string{"id", "t", "onclick", "go()"}, txt("Go")) }, RuleOnclick, RuleOnclick},
		{"inline onmousedown", func() *tn { return el("div", []string{"id", "t", "onmousedown", "x()"}) }, RuleOnclick, RuleOnclick},
		{"onload is not an action", func() *tn { return el("div", []string{"id", "t", "onload", "x()"}) }, "", ""},
		{"listener", func() *tn { n := el("div", []string{"id", "t"}, txt("L")); n.listener = true; return n }, RuleListener, RuleListener},
		{"listener on a big delegating container", big, "", ""},
		{"cursor pointer", func() *tn { return el("span", []string{"id", "t"}, txt("P")).style("cursor", "pointer") }, RuleCursorPointer, RuleCursorPointer},
		{"tabindex 0", func() *tn { return el("div", []string{"id", "t", "tabindex", "0"}) }, RuleTabindex, RuleTabindex},
		{"tabindex -1", func() *tn { return el("div", []string{"id", "t", "tabindex", "-1"}) }, "", ""},
		{"contenteditable", func() *tn { return el("div", []string{"id", "t", "contenteditable", "true"}) }, RuleEditable, RuleEditable},
		{"contenteditable false", func() *tn { return el("div", []string{"id", "t", "contenteditable", "false"}) }, "", ""},
		{"role attr", func() *tn { return el("div", []string{"id", "t", "role", "button"}) }, RuleRoleAttr, RuleRoleAttr},
		{"non-interactive role attr", func() *tn { return el("div", []string{"id", "t", "role", "note"}) }, "", ""},
		{"data-testid", func() *tn { return el("div", []string{"id", "t", "data-testid", "card"}) }, RuleTestID, RuleTestID},
		{"data-cy", func() *tn { return el("div", []string{"id", "t", "data-cy", "card"}) }, RuleTestID, RuleTestID},
		{"ng-click", func() *tn { return el("div", []string{"id", "t", "ng-click", "go()"}) }, RuleFramework, RuleFramework},
		{"@click", func() *tn { return el("div", []string{"id", "t", "@click", "go"}) }, RuleFramework, RuleFramework},
		{"class btn", func() *tn { return el("div", []string{"id", "t", "class", "x btn-primary"}) }, RuleClassWords, RuleClassWords},
		{"class linkedin is not a word match", func() *tn { return el("div", []string{"id", "t", "class", "linkedin"}) }, "", ""},
		{"native control without AX", func() *tn { return el("button", []string{"id", "t"}, txt("B")) }, RuleNativeTag, RuleNativeTag},
		{"semantic beats heuristics", func() *tn {
			return el("button", []string{"id", "t", "onclick", "x"}, txt("B")).ax("button", "B")
		}, "ax:button", ""},
		{"generic AX role is not semantic", func() *tn { return el("div", []string{"id", "t"}).ax("generic", "") }, "", ""},
		{"ignored AX node with onclick", func() *tn {
			return el("div", []string{"id", "t", "onclick", "x"}).ax("-", "")
		}, RuleOnclick, RuleOnclick},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustBuild(t, page(c.node()), BuildOptions{})
			n := findNode(s, byAttr("id", "t"))
			if n == nil {
				t.Fatal("node not built")
			}
			checkTier(t, n, c.want)
			if c.rule == "" {
				return
			}
			s = mustBuild(t, page(c.node()), BuildOptions{Disabled: map[string]bool{c.rule: true}})
			n = findNode(s, byAttr("id", "t"))
			if n.Why == c.want {
				t.Errorf("with %s off the node is still %s", c.rule, n.Why)
			}
		})
	}
}

func checkTier(t *testing.T, n *VirtualNode, want string) {
	t.Helper()
	switch {
	case want == "":
		if n.Tier != Structural {
			t.Errorf("tier %v (%s), want structural", n.Tier, n.Why)
		}
	case want[:3] == "ax:":
		if n.Tier != Semantic || n.Why != want {
			t.Errorf("got %v %s, want semantic %s", n.Tier, n.Why, want)
		}
	default:
		if n.Tier != NonSemantic || n.Why != want {
			t.Errorf("got %v %s, want non-semantic %s", n.Tier, n.Why, want)
		}
	}
}

func TestCursorPointerOnlyAtTheStartOfARegion(t *testing.T) {
	inner := el("span", []string{"id", "inner"}, txt("x")).style("cursor", "pointer")
	outer := el("div", []string{"id", "outer"}, inner).style("cursor", "pointer")
	s := mustBuild(t, page(outer), BuildOptions{})
	if n := findNode(s, byAttr("id", "outer")); n.Why != RuleCursorPointer {
		t.Errorf("outer: %s", n.Why)
	}
	if n := findNode(s, byAttr("id", "inner")); n.Tier != Structural {
		t.Errorf("inner under a pointer parent: %s", n.Why)
	}
}

func TestShortRuleNames(t *testing.T) {
	s := mustBuild(t, page(el("div", []string{"id", "t", "onclick", "x"})), BuildOptions{Disabled: map[string]bool{"onclick": true}})
	if n := findNode(s, byAttr("id", "t")); n.Tier != Structural {
		t.Errorf("short name did not switch the rule off: %s", n.Why)
	}
}

func TestEveryTierRuleIsListed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range TierRules() {
		if r.Kind != "tier" || r.Doc == "" || seen[r.Name] {
			t.Errorf("bad rule %+v", r)
		}
		seen[r.Name] = true
	}
	for _, name := range []string{RuleOnclick, RuleListener, RuleCursorPointer, RuleTabindex, RuleEditable, RuleRoleAttr, RuleTestID, RuleFramework, RuleClassWords} {
		if !seen[name] {
			t.Errorf("%s not listed", name)
		}
	}
}

func TestHasClassWord(t *testing.T) {
	for class, want := range map[string]bool{
		"btn": true, "x btn-primary": true, "nav_link": true, "BUTTON": true, "a  Clickable\tb": true,
		"interactive-card": true, "linkedin": false, "buttonless": false, "": false, "--": false,
		"btné": true, "é-link": true, "bt n": false, "lınk": false,
	} {
		if got := hasClassWord(class); got != want {
			t.Errorf("hasClassWord(%q) = %v, want %v", class, got, want)
		}
	}
}
