package mcp

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/query"
	"domscope/dom/screenshot"
)

// SnapshotArgs are dom_snapshot's arguments.
type SnapshotArgs struct {
	Format         string  `json:"format,omitempty" jsonschema:"text (default): one node per line, indented by depth, as [12] role \"name\" states: value; json: the same tree as objects with ids node_12"`
	Offscreen      *bool   `json:"offscreen,omitempty" jsonschema:"include nodes outside the viewport (default true); false shows only what is on screen, plus a line counting the rest"`
	Bounds         bool    `json:"bounds,omitempty" jsonschema:"add each node's box in page CSS pixels (@x,y WxH in text)"`
	MaxDepth       int     `json:"maxDepth,omitempty" jsonschema:"cut the tree below this many levels, with a marker (default 100)"`
	MaxInteractive int     `json:"maxInteractive,omitempty" jsonschema:"show at most this many interactive nodes, with a marker (default: all)"`
	Selector       string  `json:"selector,omitempty" jsonschema:"only the subtree of this node id (12, [12] or node_12) or of the elements this CSS selector matches"`
	MaxTokens      int     `json:"maxTokens,omitempty" jsonschema:"fit the view (below its page line) in this many tokens: shed the lines that only group, then off-screen ones (farthest first), then cut at a whole line; the last line says what went"`
	Full           bool    `json:"full,omitempty" jsonschema:"read the whole page again instead of refreshing what changed (slower; for when the view seems wrong)"`
	Interactive    bool    `json:"interactive,omitempty" jsonschema:"only the nodes to act on, one line each, with the landmark, heading or item that tells them apart"`
	Folds          *bool   `json:"folds,omitempty" jsonschema:"fold a run of 8 or more same-shaped siblings after the first three (default true); a selector on the list shows them all"`
	Behind         bool    `json:"behind,omitempty" jsonschema:"with a modal dialog open, show what lies behind it too (default: the dialog first, the rest in one line)"`
	MinVisible     float64 `json:"minVisible,omitempty" jsonschema:"with offscreen:false, show only nodes of which at least this part lies in the viewport (0.66: the 2/3 rule)"`
	LoadAll        bool    `json:"load_all,omitempty" jsonschema:"first scroll the page to its end until it stops growing (an infinite feed), at most 30 rounds and 30 s, then back"`
	Prune          bool    `json:"prune,omitempty" jsonschema:"drop the lines that only group (an unnamed list, landmark or wrapper; not items, rows, forms or dialogs): their children move up a level, ids stay"`
	Query          string  `json:"query,omitempty" jsonschema:"only the parts of the page (items, rows, sections, forms) most relevant to these words, within maxTokens (default 2000), in page order under their landmarks and headings"`
}

// FindArgs are dom_find's arguments.
type FindArgs struct {
	Text      string `json:"text" jsonschema:"the words to look for: a product, a label, a phrase"`
	MaxTokens int    `json:"maxTokens,omitempty" jsonschema:"the answer's budget in tokens (default 2000)"`
}

// ScreenshotArgs are dom_screenshot's arguments.
type ScreenshotArgs struct {
	Marks bool `json:"marks,omitempty" jsonschema:"draw each node of the view as a box numbered with its id, to match the picture with the view"`
}

func (s *Server) registerView() {
	addTool(s, "dom_snapshot", "See the page: the agent's view of it, one node per line with the id ([12]) to act on. "+
		"Every action already answers with what it changed, so call this to start, after the page changed by itself, or to look at a part of it (selector, offscreen:false, maxTokens).",
		map[string][]any{"format": {"text", "json", "compact"}}, s.snapshotTool)
	addTool(s, "dom_find", "Find where the page speaks of some words: the items, rows, sections or forms most relevant to them (BM25), with the ids to act on, in page order under their landmarks and headings. Cheaper than the whole view on a big page.",
		nil, func(ctx context.Context, in FindArgs) reply {
			if strings.TrimSpace(in.Text) == "" {
				return failed(dom.Errorf(dom.ValidationError, nil, "text: give the words to look for"))
			}
			return s.snapshotTool(ctx, SnapshotArgs{Query: in.Text, MaxTokens: in.MaxTokens})
		})
	addTool(s, "dom_screenshot", "A PNG of the visible part of the page (sensitive fields painted over). With marks:true each node of the view is drawn as a box numbered with its id.",
		nil, s.screenshotTool)
}

func (s *Server) snapshotTool(ctx context.Context, in SnapshotArgs) reply {
	o := viewOpts{Shape: query.Shape{Offscreen: true, Bounds: in.Bounds, MaxDepth: in.MaxDepth, MaxInteractive: in.MaxInteractive, Selector: in.Selector, MinVisible: in.MinVisible,
		Interactive: in.Interactive, Folds: in.Folds == nil || *in.Folds, Behind: in.Behind, Query: in.Query, Prune: in.Prune}, maxTokens: in.MaxTokens}
	if in.Query != "" && in.Format == "json" {
		return failed(dom.Errorf(dom.ValidationError, nil, "query writes the text view: drop format json"))
	}
	switch in.Format {
	case "", "text":
	case "json":
		o.json = true
	case "compact":
		o.compact = true
	default:
		return failed(dom.Errorf(dom.ValidationError, nil, "format %q: use text, json or compact", in.Format))
	}
	if in.Offscreen != nil {
		o.Offscreen = *in.Offscreen
	}
	if in.MinVisible < 0 || in.MinVisible > 1 {
		return failed(dom.Errorf(dom.ValidationError, nil, "minVisible is a part of the area, from 0 to 1 (0.66: two thirds)"))
	}
	if in.MaxDepth < 0 || in.MaxInteractive < 0 || in.MaxTokens < 0 {
		return failed(dom.Errorf(dom.ValidationError, nil, "maxDepth, maxInteractive and maxTokens take 0 or more"))
	}
	svc, err := s.service()
	if err != nil {
		return failed(err)
	}
	loaded := ""
	if in.LoadAll {
		l, ok := svc.(allLoader)
		if !ok {
			return failed(dom.Errorf(dom.ValidationError, nil, "this tab cannot load_all"))
		}
		r, err := l.LoadAll(ctx)
		if err != nil {
			return failed(err)
		}
		loaded = fmt.Sprintf("load_all: %d rounds, the page grew %.0f → %.0f px\n", r.Rounds, r.From, r.To)
	}
	var snap *dom.Snapshot
	if in.Full {
		res := svc.Do(ctx, dom.Action{Kind: dom.KindSnapshot, Full: true})
		if !res.Success {
			return reply{err: res.Error, result: &res}
		}
		snap = svc.Current()
	}
	if snap == nil {
		// Always a refresh: the page may have changed by itself since the
		// last look. The live model makes this cheap.
		if snap, err = svc.Snapshot(ctx, true); err != nil {
			return failed(err)
		}
	}
	var later *dom.Later
	if l, ok := svc.(laterTeller); ok {
		later = l.Later(snap)
	}
	o.recent = later
	text, err := s.render(ctx, svc, snap, o)
	if err != nil {
		return failed(err)
	}
	if !o.compact {
		// the compact format says it in recent_events
		var b strings.Builder
		writeLater(&b, later)
		text = b.String() + text
	}
	return reply{text: loaded + text}
}

// allLoader scrolls a page to its end until it stops growing
// (live.Service).
type allLoader interface {
	LoadAll(ctx context.Context) (query.Loaded, error)
}

// laterTeller is a service that says what changed after the last action
// answered (live.Service).
type laterTeller interface {
	Later(snap *dom.Snapshot) *dom.Later
}

// maxListedMarks bounds the ids listed as not on the picture.
const maxListedMarks = 40

func (s *Server) screenshotTool(ctx context.Context, in ScreenshotArgs) reply {
	svc, err := s.service()
	if err != nil {
		return failed(err)
	}
	pic, err := svc.Screenshot(ctx)
	if err != nil {
		return failed(err)
	}
	note := fmt.Sprintf("screenshot: %dx%d CSS pixels of the viewport\n", pic.Image.Bounds().Dx(), pic.Image.Bounds().Dy())
	if in.Marks {
		snap, err := svc.Snapshot(ctx, false)
		if err != nil {
			return failed(err)
		}
		sd, _ := flatten.Flatten(snap, dom.DefaultOptions())
		s.shown(snap)
		note += screenshot.MarkUp(snap, sd, pic, "picture", maxListedMarks)
		note += "\n"
	}
	var b bytes.Buffer
	if err := png.Encode(&b, pic.Image); err != nil {
		return failed(dom.Errorf(dom.CDPError, err, "encoding the screenshot"))
	}
	return reply{text: note, image: b.Bytes()}
}
