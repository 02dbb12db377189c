package dom

import (
	"encoding/json"
	"time"
)

// SessionStep is one action of a session as an export keeps it: the
// `domscope run` line recorded for it (a sensitive field's text already
// masked), what the UI called it, and what it did. The recorder in
// dom/script makes them; an export carries them so `domscope open` can tell
// the story of the session offline.
type SessionStep struct {
	// Step is the recorded script line, a JSON object (script.Step).
	Step json.RawMessage `json:"step"`
	// Desc is the action as the UI showed it (`click on node_19`).
	Desc string `json:"desc,omitempty"`
	// URL is the page the action ran on; Seq the number of the snapshot it
	// was aimed with.
	URL string `json:"url,omitempty"`
	Seq int    `json:"seq,omitempty"`
	// At is when the action ended (RFC 3339).
	At     string        `json:"at,omitempty"`
	Result *ActionResult `json:"result,omitempty"`
}

// SessionLog returns the session's action log saved with the capture, oldest
// first, with each result's Duration restored (nil for files without one).
func (c *SavedCapture) SessionLog() []SessionStep {
	out := make([]SessionStep, len(c.Session))
	copy(out, c.Session)
	for i := range out {
		if r := out[i].Result; r != nil && r.Duration == 0 && r.DurationMs > 0 {
			cp := *r
			cp.Duration = time.Duration(r.DurationMs * float64(time.Millisecond))
			out[i].Result = &cp
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
