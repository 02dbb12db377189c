package query

import "domscope/dom"

// Shape is how much of a snapshot a view shows. The snapshot command's
// flags and dom_snapshot's arguments are both one.
type Shape struct {
	Offscreen bool // nodes outside the viewport too
	Bounds    bool // each node's box
	MaxDepth  int  // 0: the default
	// MinVisible, with Offscreen false, keeps nodes of which at least
	// this part lies in the viewport (0.66: seed 003's 2/3 rule).
	MinVisible     float64
	MaxInteractive int // 0: all
	Selector       string
	Interactive    bool // only the interactive nodes, one line each
	Folds          bool // fold runs of same-shaped siblings
	Behind         bool // show what lies behind an open modal dialog
	// Prune drops the lines that only group (flatten.ShedStructural):
	// seed 003 §3.7.3's container pruning, in the json and text views.
	Prune bool
	// Query, when set, makes the view the chunks most relevant to these
	// words (flatten.QueryText), of the whole page: no folds, no scope.
	Query string
}

// Apply puts s into opts. A selector is resolved with css.
func (s Shape) Apply(snap *dom.Snapshot, opts *dom.Options, css func(selector string) ([]*dom.VirtualNode, error)) error {
	opts.IncludeOffscreen = s.Offscreen
	opts.MinVisible = s.MinVisible
	opts.IncludeBoundingBoxes = s.Bounds
	if s.MaxDepth > 0 {
		opts.MaxDepth = s.MaxDepth
	}
	opts.MaxInteractive = s.MaxInteractive
	opts.Interactive = s.Interactive
	opts.Fold = s.Folds
	opts.ModalScope = !s.Behind
	opts.Covered = true
	if s.Query != "" {
		opts.Fold, opts.ModalScope, opts.Interactive = false, false, false
	}
	if s.Selector == "" {
		return nil
	}
	roots, err := SelectRoots(snap, s.Selector, css)
	if err != nil {
		return err
	}
	opts.Roots = roots
	return nil
}
