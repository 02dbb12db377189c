package dom

// Tier rule names (Why of a NonSemantic node is "heuristic:<name>").
const (
	RuleOnclick       = "heuristic:onclick"
	RuleListener      = "heuristic:listener"
	RuleCursorPointer = "heuristic:cursor-pointer"
	RuleTabindex      = "heuristic:tabindex"
	RuleEditable      = "heuristic:contenteditable"
	RuleRoleAttr      = "heuristic:role-attr"
	RuleTestID        = "heuristic:testid"
	RuleFramework     = "heuristic:framework-attr"
	RuleClassWords    = "heuristic:class-words"
)

var tierRules = []Rule{
	{Name: RuleOnclick, Kind: "tier", Doc: "onclick or another inline on* handler attribute"},
	{Name: RuleListener, Kind: "tier", Doc: "a JS click/mousedown/pointerdown/mouseup listener on the element itself"},
	{Name: RuleCursorPointer, Kind: "tier", Doc: "cursor:pointer where the parent is not pointer"},
	{Name: RuleTabindex, Kind: "tier", Doc: "tabindex >= 0"},
	{Name: RuleEditable, Kind: "tier", Doc: "contenteditable"},
	{Name: RuleRoleAttr, Kind: "tier", Doc: "an interactive role attribute"},
	{Name: RuleTestID, Kind: "tier", Doc: "data-testid, data-test or data-cy"},
	{Name: RuleFramework, Kind: "tier", Doc: "framework click attributes (ng-click, v-on:click, @click, data-action)"},
	{Name: RuleClassWords, Kind: "tier", Doc: "click-suggestive class words (btn, button, clickable, link, interactive)"},
}

// TierRules lists the switchable heuristics that make a node NonSemantic.
func TierRules() []Rule { return append([]Rule(nil), tierRules...) }
