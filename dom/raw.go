package dom

import "encoding/json"

// RawCapture is everything one snapshot fetched from the browser, kept as the
// browser sent it, so it can be saved, replayed in tests and rebuilt with
// other rules without a browser. Build is a pure function of it.
type RawCapture struct {
	Version   int         `json:"version"` // format version, 1
	URL       string      `json:"url"`
	Title     string      `json:"title"`
	TargetID  string      `json:"targetId"`
	Timestamp string      `json:"timestamp"` // RFC 3339
	Viewport  Rect        `json:"viewport"`  // the top-level layout viewport, for InViewport
	Targets   []RawTarget `json:"targets"`   // [0] is the page; the rest are out-of-process iframes
}

// RawTarget is the capture of one target (the page or an out-of-process iframe).
type RawTarget struct {
	TargetID string `json:"targetId"`
	// FrameID is the frame of this target's top document.
	FrameID string `json:"frameId"`
	URL     string `json:"url"`
	// Offset is where this target's viewport sits in the top-level page
	// (0,0 for the page itself); bounds are shifted by it when stitching.
	Offset Rect `json:"offset"`

	// Document is the result of DOM.getDocument{depth:-1, pierce:true}.
	Document json.RawMessage `json:"document"`
	// AXTrees holds Accessibility.getFullAXTree results: one for the
	// target's main frame and one per same-process child frame.
	AXTrees []json.RawMessage `json:"axTrees"`
	// Layout is the result of DOMSnapshot.captureSnapshot with computed
	// styles Layout.Styles (same order).
	Layout json.RawMessage `json:"layout"`
	// Listeners are elements with their own JS click-family listeners
	// (click, mousedown, pointerdown, mouseup, ...).
	Listeners []RawListener `json:"listeners,omitempty"`
}

// LayoutStyles are the computed styles asked of DOMSnapshot.captureSnapshot, in order.
var LayoutStyles = []string{"display", "visibility", "opacity", "cursor", "pointer-events", "position", "overflow"}

// RawListener is one element with an own event listener, from
// DOMDebugger.getEventListeners{depth:-1, pierce:true}.
type RawListener struct {
	BackendID int64  `json:"backendNodeId"`
	Type      string `json:"type"`
}
