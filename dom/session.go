package dom

import (
	"encoding/json"
)

// SessionStep is one action of a session as an export keeps it. It holds
// the `domscope run` line recorded for it, a sensitive field's text
// already masked. It also holds what the UI called it, and what it did.
// The recorder in dom/script makes them. An export carries them so
// `domscope open` can tell the story of the session offline.
type SessionStep struct {
	// Step is the recorded script line, a JSON object (script.Step).
	Step json.RawMessage `json:"step"`
	// Desc is the action as the UI showed it (`click on node_19`).
	Desc string `json:"desc,omitempty"`
	// URL is the page the action ran on. Seq is the number of the snapshot
	// it was aimed with.
	URL string `json:"url,omitempty"`
	Seq int    `json:"seq,omitempty"`
	// At is when the action ended (RFC 3339).
	At     string        `json:"at,omitempty"`
	Result *ActionResult `json:"result,omitempty"`
	// After is the flattened text view after the step, as the UI showed it
	// (sensitive values already masked). It lets `open` step through the
	// story. It is left out past MaxStepView bytes; then Diff alone is kept.
	After string `json:"after,omitempty"`
	// Diff is the line diff from the view before the step to After, in
	// order. "+ " marks a line added, "- " one removed.
	Diff []string `json:"diff,omitempty"`
	// Unchanged: the step changed nothing in the view. An empty Diff says
	// the same only when After is there.
	Unchanged bool `json:"unchanged,omitempty"`
}

// MaxStepView bounds the text view an export keeps per step. A 50,000-node
// page's view is megabytes; its diff after a small action is a few lines.
const MaxStepView = 256 << 10
