package dom

import (
	"encoding/json"
	"strings"
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
	// After is the flattened text view after the step, as the UI showed it
	// (sensitive values already masked), so `open` can step through the
	// story; left out past MaxStepView bytes, where Diff alone is kept.
	After string `json:"after,omitempty"`
	// Diff is the line diff from the view before the step to After: "+ "
	// for a line added, "- " for one removed, in order.
	Diff []string `json:"diff,omitempty"`
	// Unchanged: the step changed nothing in the view (an empty Diff says
	// the same only when After is there).
	Unchanged bool `json:"unchanged,omitempty"`
}

// MaxStepView bounds the text view an export keeps per step (a 50,000-node
// page's view is megabytes; its diff after a small action is a few lines).
const MaxStepView = 256 << 10

// SetView keeps the view before and after the step: After (when it is not
// too big) and the diff between them.
func (s *SessionStep) SetView(before, after string) {
	if len(after) <= MaxStepView {
		s.After = after
	}
	s.Diff = LineDiff(before, after)
	s.Unchanged = len(s.Diff) == 0
}

// maxDiffCells bounds the table of the line diff; a middle part bigger than
// that is written as all its old lines removed and all new ones added.
const maxDiffCells = 4 << 20

// LineDiff compares two texts line by line and returns the lines removed
// ("- line") and added ("+ line"), in order (a longest common subsequence
// of the part between the common head and tail).
func LineDiff(a, b string) []string {
	if a == b {
		return nil
	}
	x, y := splitLines(a), splitLines(b)
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	var out []string
	if len(x)*len(y) > maxDiffCells {
		for _, l := range x {
			out = append(out, "- "+l)
		}
		for _, l := range y {
			out = append(out, "+ "+l)
		}
		return out
	}
	// lcs[i][j]: the longest common subsequence of x[i:] and y[j:]
	w := len(y) + 1
	lcs := make([]int32, (len(x)+1)*w)
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			out = append(out, "- "+x[i]) // a line's old form before its new one
			i++
		default:
			out = append(out, "+ "+y[j])
			j++
		}
	}
	return out
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
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
