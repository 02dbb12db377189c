// Package render turns a snapshot and view options into the answer a
// front door prints: the CLI's snapshot, the resident service's reply and
// the MCP tools' views all come from here, so they cannot drift apart.
package render

import (
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/query"
)

// View says how a snapshot is printed.
type View struct {
	// Format is json, text (the default when empty) or tree.
	Format     string
	BackendIDs bool
	query.Shape
	// MaxTokens fits the json or text view in this many tokens: it sheds
	// lines that only group, then off-screen ones, then cuts at a whole
	// node (0: none of it).
	MaxTokens int
	// FlattenOff are the flatten rules turned off.
	FlattenOff map[string]bool

	// Note words the line after a cut, in the front door's own terms.
	// Empty: the CLI's words.
	Note flatten.Note
	// Outside, when set, rewords the line counting nodes out of view.
	Outside func(n int) string
	// PageLine heads a text view with the page's title and URL.
	PageLine func(snap *dom.Snapshot) string
	// Recent is what the page did since the last action answered: the
	// compact format's recent_events.
	Recent *dom.Later
}

// UsageError is a view option that makes no sense.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// KnownFormat: format is one the views print.
func KnownFormat(format string) bool {
	switch format {
	case "json", "text", "tree", "compact":
		return true
	}
	return false
}

// Check refuses values that make no sense, in the CLI's words.
func (v View) Check() error {
	if !KnownFormat(v.Format) {
		return UsageError{fmt.Sprintf("unknown --format %q: want json, text, tree or compact", v.Format)}
	}
	if v.Query != "" && v.Format != "text" && v.Format != "" {
		return UsageError{"--query writes the text view: drop --format " + v.Format}
	}
	if v.MaxDepth < 0 || v.MaxInteractive < 0 || v.MaxTokens < 0 {
		return UsageError{"--max-depth, --max-interactive and --max-tokens take a number of 0 or more"}
	}
	if v.Format == "tree" && (v.MaxTokens > 0 || v.Selector != "" || !v.Offscreen || v.Bounds || v.Prune) {
		return UsageError{"--offscreen, --bounds, --selector, --prune and --max-tokens shape the json and text views, not --format tree"}
	}
	return nil
}

// Options are the flatten options of v for snap; css resolves a selector
// to nodes of snap. A selector's error is the caller's to word.
func (v View) Options(snap *dom.Snapshot, css func(sel string) ([]*dom.VirtualNode, error)) (dom.Options, error) {
	opts := dom.DefaultOptions()
	opts.IncludeBackendIDs = v.BackendIDs
	opts.Disabled = v.FlattenOff
	err := v.Shape.Apply(snap, &opts, css)
	if v.Format == "compact" {
		opts.IncludeBoundingBoxes = true // xy and box
	}
	return opts, err
}

// Print flattens snap with opts and prints it as v says. The text ends
// with a newline.
func (v View) Print(snap *dom.Snapshot, opts dom.Options) (string, *dom.SerializedDom, error) {
	sd, dec := flatten.Flatten(snap, opts)
	if v.Prune && v.Query == "" && v.Format != "tree" {
		// the query view's chunks and paths are its landmarks and lists
		sd, _ = flatten.ShedStructural(snap, sd)
	}
	var text string
	switch v.Format {
	case "json":
		b, err := flatten.FitJSON(snap, sd, v.MaxTokens, v.note())
		if err != nil {
			return "", nil, err
		}
		text = string(b)
	case "tree":
		text = flatten.FormatTree(snap, dec)
	case "compact":
		b, err := flatten.FormatCompact(snap, sd, opts.Look, v.Recent)
		if err != nil {
			return "", nil, err
		}
		text = string(b)
	default:
		text = v.text(snap, sd)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text, sd, nil
}

// text is the text view, fit to MaxTokens.
func (v View) text(snap *dom.Snapshot, sd *dom.SerializedDom) string {
	var b strings.Builder
	if v.PageLine != nil {
		// the page line says where the page stands when it scrolls
		b.WriteString(strings.TrimSuffix(v.PageLine(snap), "\n") + flatten.PageScrollText(sd) + "\n")
	}
	if v.Query != "" {
		text, _ := flatten.QueryText(sd, v.Query, v.MaxTokens)
		b.WriteString(text)
		return b.String()
	}
	lines, closing := flatten.FitText(snap, sd, v.MaxTokens, v.note())
	for _, l := range lines {
		// Folds also write "… " lines; only the viewport's count is reworded.
		if v.Outside != nil && sd.Outside > 0 && l.ID == "" && strings.HasPrefix(strings.TrimLeft(l.Text, " "), "… ") && strings.Contains(l.Text, "outside the viewport") {
			b.WriteString(v.Outside(sd.Outside) + "\n")
			continue
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	if closing != "" {
		b.WriteString(closing + "\n")
	}
	return b.String()
}

// note is v.Note, or the CLI's: it advises only what the call did not
// already do, in three forms down to a bare count.
func (v View) note() flatten.Note {
	if v.Note != nil {
		return v.Note
	}
	adv := "raise it"
	switch {
	case v.Selector == "" && v.Offscreen:
		adv += ", or narrow the view with --selector or --offscreen=false"
	case v.Selector == "":
		adv += ", or narrow the view with --selector"
	case v.Offscreen:
		adv += ", or narrow the view with --offscreen=false"
	}
	return func(omitted int) []string {
		return []string{
			fmt.Sprintf("%d more nodes left out to fit --max-tokens %d: %s", omitted, v.MaxTokens, adv),
			fmt.Sprintf("%d more nodes left out (--max-tokens %d)", omitted, v.MaxTokens),
			fmt.Sprintf("%d more", omitted),
		}
	}
}
