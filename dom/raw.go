package dom

import "encoding/json"

// RawCapture is everything one snapshot fetched from the browser, kept as
// the browser sent it. It can be saved, replayed in tests and rebuilt
// with other rules without a browser. Build is a pure function of it.
type RawCapture struct {
	Version   int         `json:"version"` // format version, 1
	URL       string      `json:"url"`
	Title     string      `json:"title"`
	TargetID  string      `json:"targetId"`
	Timestamp string      `json:"timestamp"` // RFC 3339
	Viewport  Rect        `json:"viewport"`  // the top-level layout viewport, for InViewport
	Targets   []RawTarget `json:"targets"`   // [0] is the page; the rest are out-of-process iframes
	// Timings are the milliseconds spent per phase of the capture
	// (document, axTree, layout, listeners, ..., total). Phases of several
	// targets run concurrently, so they can add up to more than total.
	Timings map[string]float64 `json:"timings,omitempty"`
	// URLSecrets are the credentials the capture's URLs held, longest
	// first. Every string of the capture had them hidden. A live model
	// hides them in what the page shows later too. They are never written.
	URLSecrets []string `json:"-"`
}

// Coordinates. DOMSnapshot bounds are in the coordinates of the document
// that holds the node: its top-left corner at 0,0, independent of scroll.
// The page document's coordinates are the top-level ones;
// RawCapture.Viewport is their visible part. To place a node there:
//   - node in the page's main frame: bounds as they are.
//   - node in a same-process child frame F of a target T: bounds + F's
//     RawFrame.Offset - the scroll of F's document (DOMSnapshot
//     documents[i].scrollOffsetX/Y). Then as for a node of T's main frame.
//   - node in T's main frame when T is an out-of-process frame: bounds +
//     T.Offset - T.Viewport.X/Y (T's own scroll).

// RawTarget is the capture of one target (the page or an out-of-process iframe).
type RawTarget struct {
	TargetID string `json:"targetId"`
	// FrameID is the frame of this target's top document.
	FrameID string `json:"frameId"`
	URL     string `json:"url"`
	// Offset is where this target's viewport sits in the top-level page
	// (0,0 for the page itself). It is the content box of its <iframe> in
	// page document coordinates. See "Coordinates" above.
	Offset Rect `json:"offset"`
	// ParentTargetID is the target whose document holds this target's
	// <iframe> (empty for the page). OwnerBackendID is that <iframe>
	// element's backendNodeId there (0 when unknown). The <iframe> node in
	// the parent's Document also has "frameId" equal to this FrameID.
	ParentTargetID string `json:"parentTargetId,omitempty"`
	OwnerBackendID int64  `json:"ownerBackendNodeId,omitempty"`
	// Viewport is this target's layout viewport in its own document
	// coordinates. X,Y is its scroll position, W,H its visible size.
	Viewport Rect `json:"viewport"`
	// Frames are the same-process frames of this target, its main frame
	// first. AXTrees[i] belongs to Frames[i].
	Frames []RawFrame `json:"frames,omitempty"`
	// Error is set when this out-of-process frame could not be captured
	// (it went away mid-capture). Its data is then empty.
	Error string `json:"error,omitempty"`

	// Document is the result of DOM.getDocument{depth:-1, pierce:true}:
	// {"root": node}.
	Document json.RawMessage `json:"document"`
	// DocumentParts is set for trees too deep for one getDocument reply.
	// Chrome's JSON conversion stops at about 140 nested elements with
	// "CBOR: stack limit exceeded". Document then holds the tree to a
	// limited depth. Nodes cut off there have childNodeCount > 0 but no
	// "children". Each part is a DOM.setChildNodes event,
	// {"parentId": N, "nodes": [...]}. Graft its nodes, in order, as the
	// children of node N. N is in Document or in an earlier part.
	DocumentParts []json.RawMessage `json:"documentParts,omitempty"`
	// AXTrees holds Accessibility.getFullAXTree results, in the order of
	// Frames. There is one for the target's main frame and one per
	// same-process child frame. A frame that went away mid-capture has null.
	AXTrees []json.RawMessage `json:"axTrees"`
	// Layout is the result of DOMSnapshot.captureSnapshot with computed
	// styles Layout.Styles (same order).
	Layout json.RawMessage `json:"layout"`
	// Listeners are elements with their own JS click-family listeners
	// (ListenerTypes). There is one entry per element and type. Listeners
	// on the main document, its <html> and <body> are left out: those are
	// delegating roots.
	Listeners []RawListener `json:"listeners,omitempty"`
}

// LayoutStyles are the computed styles asked of DOMSnapshot.captureSnapshot, in order.
//
// Each style costs every capture, so only the styles a rule reads are
// asked for. On synthetic-50000 the snapshot takes about 950 ms of CPU
// with no styles. It takes 1150 ms with the first four, and 1340 ms with
// seven (display, visibility, opacity, cursor, pointer-events, position,
// overflow). Keep the order: recordings made with a longer list are read
// by name through this prefix.
var LayoutStyles = []string{"display", "visibility", "opacity", "cursor", "pointer-events", "overflow"}

// RawFrame is one same-process frame of a target.
type RawFrame struct {
	FrameID       string `json:"frameId"`
	ParentFrameID string `json:"parentFrameId,omitempty"`
	URL           string `json:"url"`
	Name          string `json:"name,omitempty"`
	// Offset is the content box of the frame's <iframe>, in the coordinates
	// of the target's main document. It is zero for the main frame.
	Offset Rect `json:"offset"`
	// OwnerBackendID is the <iframe> element's backendNodeId (0 for the main frame).
	OwnerBackendID int64 `json:"ownerBackendNodeId,omitempty"`
}

// ListenerTypes are the event types that make an element clickable. The
// element must have a JS listener for one of them on itself.
var ListenerTypes = []string{"click", "mousedown", "pointerdown", "mouseup", "pointerup"}

// RawListener is one element with an own event listener, from
// DOMDebugger.getEventListeners{depth:-1, pierce:true}.
type RawListener struct {
	BackendID int64  `json:"backendNodeId"`
	Type      string `json:"type"`
}
