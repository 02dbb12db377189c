package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
)

// snapshotOpts are the snapshot command's own flags.
type snapshotOpts struct {
	format     string
	backendIDs bool
	out        string
	stats      bool
	shot       string
	marks      bool
	view       viewFlags
	capture    string
	direct     bool
}

func snapshotCommand() *cobra.Command {
	var conn connFlags
	var o snapshotOpts
	cmd := &cobra.Command{
		Use:   "snapshot",
		Short: "Print one snapshot of a page and exit",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn.given(cmd.Flags())
			return runSnapshot(cmd.Context(), conn, o)
		},
	}
	fs := cmd.Flags()
	conn.register(fs)
	fs.StringVar(&o.format, "format", "text", "output format: json, text, tree or compact (seed 003: i, r, n, v, s, xy, box, f, occ, scr)")
	fs.BoolVar(&o.backendIDs, "backend-ids", false, "add \"backendNodeId\" to every node in json output")
	fs.StringVar(&o.out, "out", "", "write the output to this file instead of stdout")
	fs.BoolVar(&o.stats, "stats", false, "print token count (o200k), tier counts, node count and timings to stderr")
	fs.StringVar(&o.shot, "screenshot", "", "also save the page's viewport as a PNG at its CSS size to this file")
	o.view.register(fs)
	fs.StringVar(&o.capture, "capture", "cdp", "experimental: cdp (default), page (roles and names from a script in the page), or compare (print where the two differ)")
	fs.BoolVar(&o.direct, "direct", false, "attach and capture here even when domscope serve runs for this endpoint")
	fs.BoolVar(&o.marks, "marks", false, "with --screenshot: draw the flattened view's ids ([N]) as numbered boxes; list those not on it on stderr")
	return cmd
}

func runSnapshot(ctx context.Context, conn connFlags, o snapshotOpts) error {
	if err := o.check(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, conn.timeout)
	defer cancel()
	mode := os.Getenv("DOMSCOPE_CAPTURE")
	if servable(conn, o, mode) {
		text, ok, err := askServer(ctx, socketPath(conn.endpoint), o.request(conn, settingsFrom(ctx)))
		if err != nil {
			return err
		}
		if ok {
			return o.write(text)
		}
	}
	tuneGC(os.Getenv)

	s, err := conn.openSnapshot(ctx, mode)
	if err != nil {
		return err
	}
	defer s.Close()

	st := settingsFrom(ctx)
	if o.capture == "compare" {
		return comparePaths(ctx, s.page, o, build.Options{Disabled: st.tierOff})
	}
	take := takeSnapshot(mode)
	if o.capture == "page" {
		take = capture.TakePage
	}
	// Printed and dropped: the capture's JSON is let go as it is decoded.
	snap, err := take(ctx, s.page, build.Options{Disabled: st.tierOff, Lean: true})
	if err != nil {
		if perr := probeFailed(ctx, s.page); perr != nil {
			return perr
		}
		return err
	}
	opts, err := o.viewOptions(snap, st.flattenOff, pageQuery(ctx, s.page, snap))
	if err != nil {
		return err
	}
	t2 := time.Now()
	text, sd, err := o.printed(snap, opts)
	if err != nil {
		return err
	}
	flattenTime := time.Since(t2)
	if err := o.write(text); err != nil {
		return err
	}
	if o.shot != "" {
		if err := writeScreenshot(ctx, s.page, snap, sd, o.shot, o.marks, os.Stderr); err != nil {
			return err
		}
	}
	if o.stats {
		printStats(os.Stderr, snap, text, o.format, snap.CaptureTime, snap.BuildTime, flattenTime)
	}
	return nil
}

// check refuses options that make no sense. The server runs it on each
// request too: one set of rules for both paths.
func (o snapshotOpts) check() error {
	if !knownFormat(o.format) {
		return usageError{fmt.Sprintf("unknown --format %q: want json, text or tree", o.format)}
	}
	switch o.capture {
	case "cdp", "page", "compare":
	default:
		return usageError{fmt.Sprintf("unknown --capture %q: want cdp, page or compare", o.capture)}
	}
	if o.capture == "compare" && (o.shot != "" || o.out != "") {
		return usageError{"--capture compare prints its own report: drop --screenshot and --out"}
	}
	if o.marks && o.shot == "" {
		return usageError{"--marks draws on the screenshot: give --screenshot FILE.png too"}
	}
	return o.view.check(o.format)
}

// knownFormat: format is one snapshot prints.
func knownFormat(format string) bool {
	switch format {
	case "json", "text", "tree", "compact":
		return true
	}
	return false
}

// flattenOptions are the options snapshot's views are flattened with:
// the settings' rules off, backend ids, and the view flags.
func (o snapshotOpts) flattenOptions(ctx context.Context, p dom.Page, snap *dom.Snapshot) (dom.Options, error) {
	return o.viewOptions(snap, settingsFrom(ctx).flattenOff, pageQuery(ctx, p, snap))
}

// viewOptions are flattenOptions with the flatten rules off given. A
// served snapshot brings the client's rules, not the server's.
func (o snapshotOpts) viewOptions(snap *dom.Snapshot, flattenOff map[string]bool, q queryFunc) (dom.Options, error) {
	opts := dom.DefaultOptions()
	opts.IncludeBackendIDs = o.backendIDs
	opts.Disabled = flattenOff
	err := o.view.apply(snap, &opts, q)
	if o.format == "compact" {
		opts.IncludeBoundingBoxes = true // xy and box
	}
	return opts, err
}

// printed is what snapshot prints of snap, served or direct: one
// formatting path, so the two cannot drift apart.
func (o snapshotOpts) printed(snap *dom.Snapshot, opts dom.Options) (string, *dom.SerializedDom, error) {
	sd, dec := flatten.Flatten(snap, opts)
	var text string
	switch o.format {
	case "json", "text":
		var err error
		if text, err = o.view.format(sd, o.format); err != nil {
			return "", nil, err
		}
	case "tree":
		text = flatten.FormatTree(snap, dec)
	case "compact":
		b, err := flatten.FormatCompact(snap, sd)
		if err != nil {
			return "", nil, err
		}
		text = string(b)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text, sd, nil
}

// write puts the printed view in --out or on stdout.
func (o snapshotOpts) write(text string) error {
	if o.out != "" {
		return dom.WritePrivate(o.out, []byte(text))
	}
	_, err := io.WriteString(os.Stdout, text)
	return err
}

// printStats writes the --stats lines.
func printStats(w io.Writer, snap *dom.Snapshot, out, format string, captureTime, buildTime, flattenTime time.Duration) {
	var nodes, hidden int
	tiers := map[dom.Tier]int{}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		nodes++
		tiers[n.Tier]++
		if !n.Visible {
			hidden++
		}
	})
	fmt.Fprintf(w, "tokens (o200k, %s): %d\n", format, flatten.CountTokens(out))
	fmt.Fprintf(w, "nodes: %d (semantic %d, non-semantic %d, structural %d; hidden %d)\n",
		nodes, tiers[dom.Semantic], tiers[dom.NonSemantic], tiers[dom.Structural], hidden)
	oop := 0
	for _, f := range snap.Frames {
		if f.OutOfProcess {
			oop++
		}
	}
	fmt.Fprintf(w, "frames: %d, out-of-process targets: %d\n", len(snap.Frames), oop)
	fmt.Fprintf(w, "capture %s, build %s, flatten+format %s\n", ms(captureTime), ms(buildTime), ms(flattenTime))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }
