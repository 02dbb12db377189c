package dom

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// ActionKind names what an Action does.
type ActionKind string

// The action kinds, in the order messages list them.
const (
	KindClick    ActionKind = "click"
	KindType     ActionKind = "type"
	KindKey      ActionKind = "key"
	KindScroll   ActionKind = "scroll"
	KindHover    ActionKind = "hover"
	KindSelect   ActionKind = "select"
	KindNavigate ActionKind = "navigate"
	KindBack     ActionKind = "back"
	KindForward  ActionKind = "forward"
	KindReload   ActionKind = "reload"
	KindDialog   ActionKind = "dialog"
	KindSnapshot ActionKind = "snapshot"
	KindViewport ActionKind = "viewport"
)

// ActionKinds lists every kind an Actor's Do understands.
var ActionKinds = []ActionKind{KindClick, KindType, KindKey, KindScroll, KindHover, KindSelect, KindNavigate, KindBack, KindForward, KindReload, KindDialog, KindSnapshot, KindViewport}

// Navigates reports whether the kind loads another page in the tab. A
// new document means focus and ids start over.
func (k ActionKind) Navigates() bool {
	switch k {
	case KindNavigate, KindBack, KindForward, KindReload:
		return true
	}
	return false
}

// Action is one thing to do to a page. The TUI's keys and `domscope run`
// lines turn into it.
type Action struct {
	Kind ActionKind `json:"action"`
	ID   string     `json:"id,omitempty"`

	// click
	Button     string `json:"button,omitempty"` // left (default), right, middle
	ClickCount int    `json:"clickCount,omitempty"`
	Force      bool   `json:"force,omitempty"` // click even when occluded

	Text      string   `json:"text,omitempty"`      // type; prompt text for dialog
	Key       string   `json:"key,omitempty"`       // key: "Enter", "ctrl+a", "shift+Tab"
	Modifiers []string `json:"modifiers,omitempty"` // click, key: "Alt", "Ctrl", "Meta", "Shift"
	DX        float64  `json:"dx,omitempty"`        // scroll
	DY        float64  `json:"dy,omitempty"`
	Value     string   `json:"value,omitempty"`  // select: option value or label
	URL       string   `json:"url,omitempty"`    // navigate
	Accept    bool     `json:"accept,omitempty"` // dialog
	// Viewport is the window a viewport action emulates. Zero means the
	// browser's own window again.
	Viewport *Viewport `json:"viewport,omitempty"`
	Full     bool      `json:"full,omitempty"` // snapshot: a full capture, not an incremental refresh
	// Expect is what the action should do; the action fails with
	// EXPECTATION_FAILED when it does not (seed 003 §3.6.3).
	Expect *Expect `json:"expect,omitempty"`
	// Metrics asks for the page's performance counters before and after.
	Metrics bool `json:"metrics,omitempty"`
}

// Expect is an action's expected outcome. Every field given must hold;
// Any holds when one of its alternatives does. It is checked until
// TimeoutMs (default 2000) after the action began.
type Expect struct {
	Appears   string   `json:"appears,omitempty"`   // a text the view shows (or that flashed)
	Gone      string   `json:"gone,omitempty"`      // a text the view no longer shows
	URL       string   `json:"url,omitempty"`       // a part of the page's URL
	Navigates bool     `json:"navigates,omitempty"` // the tab navigated
	Change    string   `json:"change,omitempty"`    // "none" or "any"
	Value     string   `json:"value,omitempty"`     // the target's value
	State     string   `json:"state,omitempty"`     // a state of the target: checked, expanded, "not checked"
	Any       []Expect `json:"any,omitempty"`
	TimeoutMs int      `json:"timeout_ms,omitempty"`
}

// DefaultExpectTimeout is how long an expectation is waited for.
const DefaultExpectTimeout = 2 * time.Second

// VisualEffect is what the browser showed for an action.
type VisualEffect struct {
	Type string  `json:"type"` // ripple, highlight
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
}

// Changes says what an action did to the page.
type Changes struct {
	Navigated  bool   `json:"navigated"`
	NewURL     string `json:"newURL,omitempty"`
	DomChanged bool   `json:"domChanged"`
	Added      int    `json:"added,omitempty"`
	Removed    int    `json:"removed,omitempty"`
	Renamed    int    `json:"renamed,omitempty"` // nodes whose accessible name changed
	// Nodes lists what changed on the nodes that stayed: states (checked,
	// expanded, selected, pressed, value, focused, disabled), visibility
	// (shown, hidden, with the reason), names and moves. It holds the first
	// MaxListedChanges. NodesMore counts the rest.
	Nodes     []Change `json:"nodes,omitempty"`
	NodesMore int      `json:"nodesMore,omitempty"`
	// Flat is what the LLM now sees differently. It holds the lines of the
	// flattened text view removed ("- ...") and added ("+ ..."), the first
	// MaxListedChanges. FlatMore says how many more.
	Flat     []string `json:"flat,omitempty"`
	FlatMore int      `json:"flatMore,omitempty"`
	// Unsettled is true when the page was still loading or changing when
	// the settle bound ran out. The snapshot after it may be mid-change.
	Unsettled bool `json:"unsettled,omitempty"`
}

// Change is one thing that changed on a node in both snapshots, as a
// person (or an agent) reads it. That is a state, its visibility, its
// name or its place in the tree.
type Change struct {
	ID string `json:"id"`
	// Kind is "state", "shown", "hidden", "name" or "moved".
	Kind string `json:"kind"`
	// What is the state's name (checked, expanded, selected, pressed,
	// value, focused, disabled). For "hidden" it is the reason it is hidden
	// now, for "shown" the reason it was hidden.
	What string `json:"what,omitempty"`
	// From and To are the old and new state value or name ("" for a state
	// that was not set). For "moved" they are the old and new parent's ID.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// MaxListedChanges bounds each list of changes in an ActionResult. An app
// that re-renders everything must not flood an agent's context.
const MaxListedChanges = 50

// DialogInfo is a JavaScript dialog open on the page.
type DialogInfo struct {
	Type          string `json:"type"` // alert, confirm, prompt, beforeunload
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt,omitempty"`
}

// ActionResult is the outcome of one action, as an agent receives it.
type ActionResult struct {
	Action              ActionKind    `json:"action"`
	ID                  string        `json:"id,omitempty"`
	Success             bool          `json:"success"`
	Duration            time.Duration `json:"-"`
	DurationMs          float64       `json:"duration"`
	VisualEffect        *VisualEffect `json:"visualEffect,omitempty"`
	Error               *Error        `json:"error,omitempty"`
	SnapshotInvalidated bool          `json:"snapshotInvalidated"`
	Changes             Changes       `json:"changes"`
	Dialog              *DialogInfo   `json:"dialog,omitempty"`
	// Network lists the requests the action started (see NetworkRequest).
	Network []NetworkRequest `json:"network,omitempty"`
	// Console lists the console errors and warnings the page logged while
	// the action ran. Uncaught exceptions count too.
	Console []ConsoleEntry `json:"console,omitempty"`
	// Snapshot says how the snapshot after the action was taken.
	Snapshot *SnapshotStat `json:"snapshot,omitempty"`

	// Effect is the verdict: what the action did (see the Effect values).
	Effect Effect `json:"effect,omitempty"`
	// Focus is the node focused after the action, when focus moved.
	Focus string `json:"focus,omitempty"`
	// TabsOpened are the tabs and popups the action opened.
	TabsOpened []TabOpened `json:"tabs_opened,omitempty"`
	// Flashed are nodes that appeared and went (or were shown and
	// hidden) while the action settled: a toast no snapshot holds.
	Flashed []Flash `json:"flashed,omitempty"`
	// Announced are live regions whose text changed during the action.
	Announced []Announcement `json:"announced,omitempty"`
	// Background counts the view's lines that changed by themselves (a
	// clock): they are left out of Changes.Flat and the verdict.
	Background int `json:"background,omitempty"`
	// Metrics is the change in the page's performance counters the action
	// made (asked for with Action.Metrics).
	Metrics *Metrics `json:"metrics,omitempty"`
	// Typed says how a type action typed: "keys" (key events for each
	// character: the page listens for keys) or "insert" (at once).
	Typed string `json:"typed,omitempty"`
	// Expected says the expectation held ("" when none was given; a
	// failed one is the action's error).
	Expected string `json:"expected,omitempty"`
	// ErrorsSeen are the errors the page shows after the action: alerts
	// (shown or flashed), invalid fields with their message, console
	// errors and failed requests.
	ErrorsSeen []string `json:"errors_seen,omitempty"`
	// Later is what changed after the last action settled and before
	// this one began: that action's late effects, not this one's.
	Later *Later `json:"later,omitempty"`
}

// Effect is an action's verdict, from the strongest to the weakest.
type Effect string

// The verdicts, in the order they win.
const (
	EffectDialog    Effect = "dialog"     // a JavaScript dialog opened
	EffectNewTab    Effect = "new_tab"    // a tab or popup opened
	EffectNavigated Effect = "navigated"  // the tab loaded another document or URL
	EffectChanged   Effect = "changed"    // the view changed, or something flashed
	EffectFocusOnly Effect = "focus_only" // only the focus moved
	EffectNone      Effect = "none"       // no visible change
)

// TabOpened is a tab or popup an action opened: its target id, ready to
// select, its URL (secrets redacted) and title.
type TabOpened struct {
	Target string `json:"target"`
	URL    string `json:"url"`
	Title  string `json:"title,omitempty"`
}

// Flash is a node that appeared and went while an action settled. ID is
// the node it appeared in (it has none of its own once gone), Role its
// role ("" for plain text), Text its text (masked as the view is) and Ms
// how long it was there.
type Flash struct {
	ID   string  `json:"id,omitempty"`
	Role string  `json:"role,omitempty"`
	Text string  `json:"text"`
	Ms   float64 `json:"ms"`
}

// Announcement is a live region (role alert, status or log, or
// aria-live) whose text changed during an action: its last text.
type Announcement struct {
	ID   string `json:"id,omitempty"`
	Role string `json:"role,omitempty"`
	Text string `json:"text"`
}

// Later is what the page did by itself after an action settled: the
// view's changed lines and what flashed, AfterMs after that action's
// snapshot (when the first change came).
type Later struct {
	AfterMs  float64    `json:"after_ms"`
	Action   ActionKind `json:"action,omitempty"`
	Flat     []string   `json:"flat,omitempty"`
	FlatMore int        `json:"flatMore,omitempty"`
	Flashed  []Flash    `json:"flashed,omitempty"`
}

// ConsoleEntry is one console message an action caused, as the page gave
// it. It holds the level ("error" or "warning") and the clipped text. It
// says where it was logged ("app.js:12", the script's URL redacted).
type ConsoleEntry struct {
	Level  string `json:"level"`
	Text   string `json:"text"`
	Source string `json:"source,omitempty"`
}

// NetworkRequest is one request an action started, as its ActionResult
// lists it. It keeps only the method, the URL with its query values
// redacted, and the outcome. It never keeps headers (cookies,
// Authorization), bodies or query values: they carry tokens and personal
// data.
type NetworkRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the HTTP status of the response (0 when none came).
	Status int `json:"status"`
	// Ms is how long the request took. A request still pending at settle
	// counts how long it has been under way.
	Ms float64 `json:"ms"`
	// Failed is set when the request failed (network error, blocked,
	// canceled). Error is the browser's reason ("net::ERR_CONNECTION_REFUSED").
	Failed bool   `json:"failed,omitempty"`
	Error  string `json:"error,omitempty"`
	// Pending is set when no response had finished when the page settled.
	Pending bool `json:"pending,omitempty"`
	// Type is the browser's resource type: Document, XHR, Fetch, Script…
	Type string `json:"type,omitempty"`
}

// SnapshotStat says how a snapshot was taken and how long it took.
// The kind is "full" (a whole capture) or "incremental" (the live model
// refreshed where the page changed). The time covers capture and build,
// in milliseconds.
type SnapshotStat struct {
	Kind string  `json:"kind"`
	Ms   float64 `json:"ms"`
}

// StatOf describes how s was taken (nil for no snapshot).
func StatOf(s *Snapshot) *SnapshotStat {
	if s == nil {
		return nil
	}
	k := "full"
	if s.Incremental {
		k = "incremental"
	}
	return &SnapshotStat{Kind: k, Ms: float64((s.CaptureTime + s.BuildTime).Microseconds()) / 1000}
}

// ErrorOf returns err as an *Error: the one it is or wraps. Else it is a
// CDP_ERROR that wraps it.
func ErrorOf(err error) *Error {
	var de *Error
	if errors.As(err, &de) {
		return de
	}
	return Errorf(CDPError, err, "action failed")
}

// ConnState is the state of the service's connection to its page.
type ConnState int

const (
	Connected ConnState = iota
	Reconnecting
	Disconnected
)

func (s ConnState) String() string {
	switch s {
	case Reconnecting:
		return "reconnecting"
	case Disconnected:
		return "disconnected"
	default:
		return "connected"
	}
}

// Event is something the service tells its users without being asked.
type Event struct {
	Kind   string      // "invalidated", "dialog", "dialog-closed", "state", "navigated", "loaded" (the main document's load event), "page-changed" (by others, page quiet again)
	State  ConnState   // for "state"
	Dialog *DialogInfo // for "dialog"
	URL    string      // for "navigated"
	Err    error
	// Busy, for "page-changed": the page did not go quiet. It is still
	// changing, and is reported at least once a second.
	Busy bool
}

// Actor is the observe-act service as its users (the TUI, `domscope run`)
// see it. One per attached target.
type Actor interface {
	// Snapshot returns the cached snapshot. It captures a new one when
	// there is none, or it was invalidated or is too old, or force is set.
	Snapshot(ctx context.Context, force bool) (*Snapshot, error)
	// Current returns the cached snapshot without capturing (nil if none).
	Current() *Snapshot
	// Do performs one action; it never panics and always invalidates.
	Do(ctx context.Context, a Action) ActionResult
	// Highlight shows the browser overlay for a node (id != ""). An empty
	// id hides it.
	Highlight(ctx context.Context, id string) error
	// SetTierRules switches tier rules off for every later build. It
	// rebuilds the latest snapshot with them, keeping its IDs. It returns
	// nil when there is none yet, or the page changed since: take a new one.
	SetTierRules(disabled map[string]bool) (*Snapshot, error)
	// Events delivers invalidations, dialogs and connection changes.
	Events() <-chan Event
	State() ConnState
	Close() error
}

// TypesChar reports whether a key press would type a character into a
// field. That is one character, with no modifier but Shift. Recordings
// and saved sessions mask such keys when aimed at a secret.
func TypesChar(key string, mods []string) bool {
	parts := strings.Split(key, "+")
	k := parts[len(parts)-1]
	if key == "+" || strings.HasSuffix(key, "++") {
		k = "+"
		parts = parts[:len(parts)-1]
	}
	for _, m := range append(append([]string{}, mods...), parts[:len(parts)-1]...) {
		if m != "" && !strings.EqualFold(m, "shift") {
			return false
		}
	}
	return utf8.RuneCountInString(k) == 1 || k == "Space"
}

// Metrics is an action's performance delta (Performance.getMetrics):
// DOM nodes, JS heap bytes, layouts and style recalculations it caused,
// and the nodes and heap after it.
type Metrics struct {
	Nodes        int   `json:"nodes"`
	JSHeapBytes  int64 `json:"js_heap_bytes"`
	Layouts      int   `json:"layouts"`
	StyleRecalcs int   `json:"style_recalcs"`
	NodesAfter   int   `json:"nodes_after"`
	JSHeapAfter  int64 `json:"js_heap_after"`
}
