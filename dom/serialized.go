package dom

// Length limits of names and texts in the flattened view, in runes.
const (
	MaxNameLen = 250
	MaxTextLen = 500
)

// SerializedDom is the flattened view for an LLM. It is the json format
// agents receive.
type SerializedDom struct {
	URL                      string            `json:"url"`
	Title                    string            `json:"title"`
	Timestamp                string            `json:"timestamp"`
	Nodes                    []*SerializedNode `json:"nodes"`
	Frames                   []FrameInfo       `json:"frames"`
	TotalInteractiveElements int               `json:"totalInteractiveElements"`
	NodeCount                int               `json:"nodeCount"`
	// Outside counts the nodes left out for lying outside the viewport
	// (Options.IncludeOffscreen false). A marker node says it too.
	Outside int `json:"-"`
	// Scroll is where the page itself stands, when it scrolls.
	Scroll *ScrollState `json:"scroll,omitempty"`
	// Marks are what the passes found of nodes beyond their lines, for a
	// view that marks nodes elsewhere (the UI's tree pane).
	Marks ViewMarks `json:"-"`
}

// ViewMarks say, by node ID, what a flatten found of nodes beyond their
// lines: what covers a control (even one the modal scope folded away),
// the open modal the view starts with, and the items folds hid.
type ViewMarks struct {
	Covered map[string]string // a covered control → the element on top
	Modal   string            // the open modal dialog the view starts with
	Folded  map[string]string // an item folded away → the first of its run
}

// SerializedNode is one kept node. Only non-default values appear in JSON.
type SerializedNode struct {
	ID            string `json:"id"`
	BackendNodeID int64  `json:"backendNodeId,omitempty"` // only with --backend-ids
	Role          string `json:"role"`
	Name          string `json:"name,omitempty"`
	Tag           string `json:"tag"`
	Text          string `json:"text,omitempty"`
	Href          string `json:"href,omitempty"`
	Placeholder   string `json:"placeholder,omitempty"`
	Value         string `json:"value,omitempty"`
	InputType     string `json:"inputType,omitempty"`
	Disabled      bool   `json:"disabled,omitempty"`
	Checked       string `json:"checked,omitempty"` // "true", "false" or "mixed"
	Expanded      string `json:"expanded,omitempty"`
	Selected      bool   `json:"selected,omitempty"`
	Required      bool   `json:"required,omitempty"`
	Pressed       string `json:"pressed,omitempty"` // "true", "false" or "mixed"
	Focused       bool   `json:"focused,omitempty"`
	// Context tells apart an interactive node whose role and name repeat
	// (the interactive view): the label of the item it sits in.
	Context   string       `json:"context,omitempty"`
	Level     int          `json:"level,omitempty"` // heading level
	TestID    string       `json:"data-testid,omitempty"`
	Offscreen bool         `json:"offscreen,omitempty"`
	Bounds    *Rect        `json:"bounds,omitempty"` // only with IncludeBoundingBoxes
	Scroll    *ScrollState `json:"scroll,omitempty"` // a scroll container: where it stands
	// CoveredBy is the id of the element drawn over this control's click
	// point: a click would hit it instead.
	CoveredBy string            `json:"covered_by,omitempty"`
	Children  []*SerializedNode `json:"children,omitempty"`
}

// ScrollState is where a scroll container stands in the output, in CSS
// pixels; the horizontal fields only where it scrolls sideways. Rows
// estimates the rows of a virtual list (0: every row is drawn).
type ScrollState struct {
	Top         float64 `json:"top"`
	Height      float64 `json:"height"`
	Client      float64 `json:"client"`
	MoreAbove   bool    `json:"more_above"`
	MoreBelow   bool    `json:"more_below"`
	Left        float64 `json:"left,omitempty"`
	Width       float64 `json:"width,omitempty"`
	ClientWidth float64 `json:"client_width,omitempty"`
	MoreLeft    bool    `json:"more_left,omitempty"`
	MoreRight   bool    `json:"more_right,omitempty"`
	Rows        int     `json:"rows,omitempty"`
}

// DecisionKind is what flattening did with one VirtualNode.
type DecisionKind int

const (
	// Keep emits the node.
	Keep DecisionKind = iota
	// Hoist removes the node and lifts its children to its parent.
	Hoist
	// Drop removes the node and its whole subtree.
	Drop
)

func (k DecisionKind) String() string {
	switch k {
	case Hoist:
		return "hoist"
	case Drop:
		return "drop"
	default:
		return "keep"
	}
}

// Decision records what flattening did with a node and which rule decided.
type Decision struct {
	Kind DecisionKind
	Rule string // e.g. "keep-semantic", "hoist-structural", "drop-invisible"
	// Into is the ID of the nearest kept ancestor. A hoisted node's
	// children went there; a dropped node would have appeared under it.
	Into string
}

// Options control flattening.
type Options struct {
	IncludeValues        bool
	IncludeHidden        bool
	IncludeOffscreen     bool
	IncludeBoundingBoxes bool
	IncludeBackendIDs    bool
	MaxDepth             int // default 100
	// MaxInteractive caps interactive nodes. 0 means no cap, the default:
	// every actionable element must reach the agent. A cap such as 1000
	// bounds tokens on huge pages but loses controls.
	MaxInteractive int
	// Disabled names the flatten rules switched off.
	Disabled map[string]bool
	// Roots, when set, flattens only the subtrees of these node IDs, in
	// document order. They are a CSS selector's matches, or one node.
	Roots []string
	// Interactive keeps only the interactive nodes, one line each, with
	// the context that tells them apart (issue 33).
	Interactive bool
	// Fold folds runs of same-shaped siblings after the first three. The
	// fold-repeats rule switches it off too.
	Fold bool
	// ModalScope puts an open modal dialog first and folds what lies
	// behind it into one line. The modal-scope rule switches it off too.
	ModalScope bool
	// Covered marks controls another element is drawn over (the
	// mark-covered rule switches it off too). The marks come from Look.
	Covered bool
	// MinVisible, with IncludeOffscreen false, keeps only nodes of which
	// at least this part of the area lies in the viewport (seed 003
	// §3.7.4's 2/3 rule: 0.66). It needs Look's viewport; 0: any part.
	MinVisible float64
	// Look is what the view read of the page besides the capture: scroll
	// positions and hit tests (nil: no scroll or covered marks).
	Look *Look
}

// DefaultOptions are the flatten defaults. Offscreen nodes are kept, depth
// is 100, interactive nodes have no cap and every rule is on.
func DefaultOptions() Options {
	return Options{IncludeValues: true, IncludeOffscreen: true, MaxDepth: 100}
}

// Rule is a named, switchable heuristic. The UI lists it; decisions and
// tier reasons name it.
type Rule struct {
	Name string // "heuristic:onclick", "drop-invisible", ...
	Kind string // "tier" or "flatten"
	Doc  string // one line for the UI
}

// CopyRules copies a set of rules switched off (Options.Disabled, the
// tier rules of a build). It keeps only those set, so no map is shared.
func CopyRules(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		if v {
			out[k] = true
		}
	}
	return out
}
