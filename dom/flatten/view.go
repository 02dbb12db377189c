package flatten

import (
	"strings"
	"sync"
	"sync/atomic"

	"domscope/dom"
)

// View is one snapshot flattened and formatted once: what the flat pane
// shows, what an agent reads, and what the line diff compares. The
// service makes it after a read and the UI shows it as it is. It keeps
// no flattened tree (at 50,000 elements that is ~10 MB per view):
// Serialized makes it again when a reader needs it.
type View struct {
	Snap *dom.Snapshot
	Opts dom.Options
	JSON bool // Lines are the indented JSON format, else the text format
	Dec  dom.Decisions
	// NodeCount is the flattened tree's node count (its nodeCount).
	NodeCount int
	// Text is the text format, whatever JSON says: the line diff reads it.
	Text string
	// Lines are the lines shown, each with its node's ID. In the text
	// format their strings share Text's memory.
	Lines []Line
	// Marks are what the passes found of nodes beyond their lines
	// (covered controls, the modal, folded items), by ID.
	Marks dom.ViewMarks
	// Scrolls are the scroll containers' marks ("scroll 40% ↑↓"), by ID;
	// the page's is under its root's ID. They come from Opts.Look.
	Scrolls map[string]string
	// tokens counts the exact output an LLM receives: Text, or compact
	// JSON. Counted on first use: at 50,000 elements it takes a quarter
	// second, which an action's own diff does not need.
	tokens func() int
	// counted are the text's token counts by chunk, once counted: the
	// next snapshot's view counts only its changed lines (CountAfter).
	counted atomic.Pointer[chunkCounts]
}

// Tokens is the token count of the output an LLM receives.
func (v *View) Tokens() int { return v.tokens() }

// NewView flattens s with opts and formats it (as indented JSON lines when
// asJSON is set), counting the output's tokens.
func NewView(s *dom.Snapshot, opts dom.Options, asJSON bool) (*View, error) {
	sd, dec := Flatten(s, opts)
	return ViewOf(s, sd, dec, opts, asJSON)
}

// ViewOf formats a flatten result already made (sd and dec of s with
// opts). The view does not keep sd.
func ViewOf(s *dom.Snapshot, sd *dom.SerializedDom, dec dom.Decisions, opts dom.Options, asJSON bool) (*View, error) {
	opts.Disabled = dom.CopyRules(opts.Disabled) // the caller's map may change later
	v := &View{Snap: s, Opts: opts, JSON: asJSON, Dec: dec}
	if sd != nil {
		v.NodeCount = sd.NodeCount
		v.Marks = sd.Marks
	}
	v.Scrolls = ScrollMarks(s, opts.Look)
	v.Text, v.Lines = textAndLines(sd)
	if !asJSON {
		v.CountAfter(nil)
		return v, nil
	}
	var err error
	if v.Lines, err = FormatJSONLines(sd); err != nil {
		return nil, err
	}
	// The tree is kept only until counted (OnceValue drops its
	// function then): the UI counts at once.
	v.tokens = sync.OnceValue(func() int {
		b, err := FormatJSON(sd)
		if err != nil {
			return 0
		}
		return CountTokens(string(b))
	})
	return v, nil
}

// Serialized flattens the view's snapshot again: the tree its lines were
// formatted from. It takes a Flatten (about 100 ms at 50,000 elements),
// so it is for a user's command, off the Update loop.
func (v *View) Serialized() *dom.SerializedDom {
	sd, _ := Flatten(v.Snap, v.Opts)
	return sd
}

// CountAfter makes a text view count its tokens from prev's, a view of
// an earlier snapshot: only lines not in prev are counted. prev's counts
// are taken if it has been counted; prev itself is not kept.
func (v *View) CountAfter(prev *View) {
	if v.JSON {
		return
	}
	var pc *chunkCounts
	if prev != nil && !prev.JSON {
		pc = prev.counted.Load()
	}
	v.tokens = sync.OnceValue(func() int {
		n, counts := countTextChunks(v.Text, pc)
		pc = nil
		if counts != nil {
			v.counted.Store(&chunkCounts{text: v.Text, counts: counts})
		}
		return n
	})
}

// Counted reports whether the text view's tokens have been counted.
func (v *View) Counted() bool { return v != nil && v.counted.Load() != nil }

// Matches says whether v is s flattened with opts in the asked format.
func (v *View) Matches(s *dom.Snapshot, opts dom.Options, asJSON bool) bool {
	return v != nil && v.Snap == s && v.JSON == asJSON && sameOptions(v.Opts, opts)
}

func sameOptions(a, b dom.Options) bool {
	if a.IncludeValues != b.IncludeValues || a.IncludeHidden != b.IncludeHidden ||
		a.IncludeOffscreen != b.IncludeOffscreen || a.IncludeBoundingBoxes != b.IncludeBoundingBoxes ||
		a.IncludeBackendIDs != b.IncludeBackendIDs || a.MaxDepth != b.MaxDepth ||
		a.MaxInteractive != b.MaxInteractive || len(a.Roots) != len(b.Roots) ||
		a.Interactive != b.Interactive || a.Fold != b.Fold || a.ModalScope != b.ModalScope || a.Covered != b.Covered ||
		a.MinVisible != b.MinVisible || a.Look != b.Look {
		return false
	}
	for i := range a.Roots {
		if a.Roots[i] != b.Roots[i] {
			return false
		}
	}
	for k, on := range a.Disabled {
		if on != b.Disabled[k] {
			return false
		}
	}
	for k, on := range b.Disabled {
		if on != a.Disabled[k] {
			return false
		}
	}
	return true
}

// textAndLines writes the text format once; each line is a slice of it.
func textAndLines(sd *dom.SerializedDom) (string, []Line) {
	if sd == nil {
		return "", nil
	}
	var b strings.Builder
	type span struct {
		id         string
		start, end int
	}
	var spans []span
	eachTextNode(sd, func(n *dom.SerializedNode, depth int) {
		start := b.Len()
		writeTextLine(&b, n, depth)
		spans = append(spans, span{n.ID, start, b.Len() - 1}) // without its "\n"
	})
	text := b.String()
	lines := make([]Line, len(spans))
	for i, s := range spans {
		lines[i] = Line{ID: s.id, Text: text[s.start:s.end]}
	}
	work.format.Add(1)
	return text, lines
}
