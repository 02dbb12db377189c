// Package dom holds the contracts of domscope's engine. That is the
// VirtualNode tree and its snapshot, raw captures, actions and their
// results, errors and the browser interfaces (conn.go). Each stage is a
// package below it (cdpjson, capture, build, flatten, export). dom/live
// acts on a page.
package dom

import "time"

// Tier says how much a node matters to an agent.
type Tier int8

const (
	// Structural nodes are everything else: wrappers, text, documents.
	Structural Tier = iota
	// NonSemantic nodes have no meaningful AX role but a heuristic says they act.
	NonSemantic
	// Semantic nodes have a non-ignored AX role that carries meaning.
	Semantic
)

func (t Tier) String() string {
	switch t {
	case Semantic:
		return "semantic"
	case NonSemantic:
		return "non-semantic"
	default:
		return "structural"
	}
}

// Rect is a box in CSS pixels of the top-level viewport.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"width"`
	H float64 `json:"height"`
}

// DOM node types as CDP reports them.
const (
	ElementNode  = 1
	TextNode     = 3
	CommentNode  = 8
	DocumentNode = 9
	DoctypeNode  = 10
	FragmentNode = 11 // shadow roots
)

// Hidden reasons (VirtualNode.Hidden).
const (
	HiddenDisplayNone   = "display:none" // no layout box: display:none or not rendered
	HiddenAttr          = "hidden-attr"  // the hidden attribute (and no box)
	HiddenVisibility    = "visibility:hidden"
	HiddenOpacity       = "opacity:0"
	HiddenZeroSize      = "zero-size"
	HiddenAriaHidden    = "aria-hidden"
	HiddenInert         = "inert"
	HiddenClosedDetails = "closed-details" // content of a closed <details>
	HiddenInherited     = "inherited"      // an ancestor is hidden
	HiddenNotRendered   = "not-rendered"   // a text node with no box (collapsed white space)
)

// VirtualNode is one DOM node of the complete tree (pass 1), 1:1 with the
// DOM. It adds accessibility and layout facts.
type VirtualNode struct {
	ID        string // "node_12", stable across re-snapshots of the same document
	BackendID int64  // CDP backendNodeId; never shown to the LLM
	FrameID   string // the frame whose document holds this node
	TargetID  string // the CDP target (page or out-of-process frame) that owns it
	Tag       string // lowercase local name; "#text", "#document", "#shadow-root"
	Role      string // AX role > role attribute > tag
	Name      string // AX name > aria-label > text
	Text      string // value of a #text node
	Attrs     map[string]string
	States    map[string]string // AX properties or heuristics: checked, expanded, disabled, focused...
	// ShadowType is "open", "closed" or "user-agent" for #shadow-root nodes.
	ShadowType string

	Bounds Rect
	// Hidden names the reason a node is not visible ("display:none",
	// "aria-hidden", "zero-size", "inherited", ...). It is empty when visible.
	Hidden string
	Why    string // the rule that set the tier: "ax:button", "heuristic:onclick", ...

	// The small fields share one word: a 50k-element page has 100,000
	// nodes, and each tree of it is held twice around an action.
	NodeType   int32 // ElementNode, TextNode, ...
	Tier       Tier
	Visible    bool
	InViewport bool
	// Scrolls: the element's overflow scrolls (auto or scroll). It is a
	// scroll container when its content is larger than its box; a view
	// that asks reads where it stands (Look).
	Scrolls bool

	Parent   *VirtualNode
	Children []*VirtualNode // complete: shadow roots and frame documents included
}

// Scroll is where a scroll container (or the page) stands, in CSS pixels.
type Scroll struct {
	Top, Left     float64 // scrolled by
	Height, Width float64 // the content's size
	ClientHeight  float64 // the part shown
	ClientWidth   float64
}

// MoreBelow says whether content lies below what is shown.
func (s *Scroll) MoreBelow() bool { return s.Top+s.ClientHeight < s.Height-1 }

// MoreAbove says whether content lies above what is shown.
func (s *Scroll) MoreAbove() bool { return s.Top > 1 }

// MoreRight says whether content lies right of what is shown.
func (s *Scroll) MoreRight() bool { return s.Left+s.ClientWidth < s.Width-1 }

// MoreLeft says whether content lies left of what is shown.
func (s *Scroll) MoreLeft() bool { return s.Left > 1 }

// Attr returns an attribute value, or "".
func (n *VirtualNode) Attr(name string) string { return n.Attrs[name] }

// Walk visits root and every node below it in document order. It does not
// recurse: pages nest thousands deep. A nil root visits nothing.
func Walk(root *VirtualNode, f func(*VirtualNode)) {
	if root == nil {
		return
	}
	stack := []*VirtualNode{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f(n)
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
	}
}

// FrameInfo describes one frame of the snapshot.
type FrameInfo struct {
	FrameID  string `json:"frameId"`
	TargetID string `json:"targetId,omitempty"`
	URL      string `json:"url"`
	Name     string `json:"name,omitempty"`
	// OutOfProcess is true for cross-origin frames captured through their own target.
	OutOfProcess bool `json:"outOfProcess,omitempty"`
	// Host is the ID of the <iframe> element that holds this frame. It is
	// empty for the main frame.
	Host string `json:"host,omitempty"`
}

// Snapshot is one capture of a target, built into a VirtualNode tree.
type Snapshot struct {
	Seq      int       // 1, 2, 3... per service
	URL      string    // top-level document URL
	Title    string    // top-level document title
	TargetID string    // the page target
	Taken    time.Time // when the capture started
	// CaptureTime is the time spent fetching from the browser. BuildTime is
	// the time spent building the tree.
	CaptureTime time.Duration
	BuildTime   time.Duration
	// Incremental is true when the snapshot refreshed a live model rather
	// than capturing the whole page. Only what changed was fetched.
	Incremental bool
	// BuiltAhead is true when the tree of an incremental snapshot was built
	// while the browser made the layout. Only bounds, whether in the
	// viewport and control states were put right after it.
	BuiltAhead bool

	Root   *VirtualNode
	Frames []FrameInfo
	ByID   map[string]*VirtualNode
	// NextID is the number the next new node gets. A rebuild with this
	// snapshot as build.Options.Prev continues from it, so IDs never repeat.
	NextID int

	// Raw is what the browser sent. It is kept for export, and for
	// rebuilding with other rules without a new capture. A lean build has
	// none, nor has a snapshot of a live model: use Capture.
	Raw *RawCapture
	// Stamp is the capture's timestamp as it says it (RawCapture.Timestamp).
	Stamp string
	// Source is the live model a snapshot was built from. Capture writes
	// it out; such a snapshot has no Raw.
	Source Source
}

// Source is what a snapshot with no Raw was built from: the live model of
// dom/live. It can write itself out while it has not changed since.
type Source interface {
	// Capture writes the source out as the capture s was built from.
	Capture(s *Snapshot) (*RawCapture, error)
	// Rebuild builds s again with the tier rules in disabled switched off.
	Rebuild(s *Snapshot, disabled map[string]bool) (*Snapshot, error)
}

// Node returns the node with the given ID, or nil. It accepts the short
// forms "12" and "[12]" as well as "node_12".
func (s *Snapshot) Node(id string) *VirtualNode {
	if s == nil {
		return nil
	}
	return s.ByID[NormalizeID(id)]
}

// Capture returns the raw capture the snapshot was built from. That is
// Raw. A snapshot of a live model keeps no CDP JSON; it gives the model
// written out in the same form. That works only while the model has not
// changed since; else the error wraps ErrPageChanged.
func (s *Snapshot) Capture() (*RawCapture, error) {
	switch {
	case s == nil:
		return nil, Errorf(ValidationError, nil, "there is no snapshot")
	case s.Raw != nil:
		return s.Raw, nil
	case s.Source == nil:
		return nil, Errorf(SnapshotFailed, nil, "this snapshot has no raw capture")
	}
	return s.Source.Capture(s)
}

// HasCapture reports whether Capture can give the snapshot's capture (or
// could, before the page changed).
func (s *Snapshot) HasCapture() bool {
	return s != nil && (s.Raw != nil || s.Source != nil)
}

// WithoutCapture is a copy of the snapshot with no capture and no hold on
// a live model. It is for a snapshot kept only to compare against.
func (s *Snapshot) WithoutCapture() *Snapshot {
	c := *s
	c.Raw, c.Source = nil, nil
	return &c
}
