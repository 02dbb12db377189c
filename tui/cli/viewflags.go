package cli

import (
	"github.com/spf13/pflag"

	"domscope/dom/query"
)

// ViewFlags are the serialization options of the snapshot command (seed
// 002 SerializationOptions). dom_snapshot takes the same ones over MCP.
type ViewFlags struct {
	query.Shape
	MaxTokens int
}

// Register adds the flags to fs.
func (v *ViewFlags) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&v.Offscreen, "offscreen", true, "include nodes outside the viewport (false: only what is in view, plus a line counting the rest)")
	fs.BoolVar(&v.Bounds, "bounds", false, "add each node's box (page CSS pixels): \"bounds\" in json, @x,y WxH in text")
	fs.Float64Var(&v.MinVisible, "min-visible", 0, "with --offscreen=false, show only nodes of which at least this part lies in the viewport (0.66: the 2/3 rule)")
	fs.IntVar(&v.MaxDepth, "max-depth", 0, "cut the view below this many levels, with a marker (0: the default, 100)")
	fs.IntVar(&v.MaxInteractive, "max-interactive", 0, "show at most this many interactive nodes, with a marker (0: all)")
	fs.StringVar(&v.Selector, "selector", "", "only the subtrees of the elements this CSS selector matches, or of one node id (node_12, 12 or [12])")
	fs.BoolVarP(&v.Interactive, "interactive", "i", false, "only the interactive nodes, one line each, with the landmark, heading or item that tells them apart")
	fs.BoolVar(&v.Folds, "folds", true, "fold a run of 8 or more same-shaped siblings after the first three, with a line saying how to see them all")
	fs.BoolVar(&v.Behind, "behind-modal", false, "with a modal dialog open, show what lies behind it too (default: the dialog first, the rest in one line)")
	fs.BoolVar(&v.Prune, "prune", false, "drop the lines that only group (an unnamed list, landmark or wrapper; not items, rows, forms or dialogs): their children move up a level")
	fs.StringVar(&v.Query, "query", "", "only the parts of the page (items, rows, sections, forms) most relevant to these words, best first by BM25, within --max-tokens (default 2000)")
	fs.IntVar(&v.MaxTokens, "max-tokens", 0, "fit the json or text view in this many tokens (o200k): shed lines that only group, then off-screen ones, then cut at a whole node; a last line says what went (0: all of it)")
}

// Check refuses values that make no sense.
func (v *ViewFlags) Check(format string) error {
	if v.MaxDepth < 0 || v.MaxInteractive < 0 || v.MaxTokens < 0 {
		return UsageError{"--max-depth, --max-interactive and --max-tokens take a number of 0 or more"}
	}
	if v.MinVisible < 0 || v.MinVisible > 1 {
		return UsageError{"--min-visible is a part of the area, from 0 to 1 (0.66: two thirds)"}
	}
	if v.Query != "" && format != "text" {
		return UsageError{"--query writes the text view: drop --format " + format}
	}
	if format == "tree" && (v.MaxTokens > 0 || v.Selector != "" || !v.Offscreen || v.Bounds || v.Prune) {
		return UsageError{"--offscreen, --bounds, --selector, --prune and --max-tokens shape the json and text views, not --format tree"}
	}
	return nil
}

// Args are the flags as dom_snapshot's arguments, for a session's view.
func (v *ViewFlags) Args(format string, loadAll bool) map[string]any {
	return map[string]any{"format": format, "offscreen": v.Offscreen, "bounds": v.Bounds, "maxDepth": v.MaxDepth,
		"maxInteractive": v.MaxInteractive, "selector": v.Selector, "maxTokens": v.MaxTokens,
		"interactive": v.Interactive, "folds": v.Folds, "behind": v.Behind, "minVisible": v.MinVisible,
		"query": v.Query, "load_all": loadAll, "prune": v.Prune}
}
