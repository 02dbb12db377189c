package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/query"
	"domscope/dom/render"
	"domscope/dom/screenshot"
	"domscope/dom/serve"
	"domscope/tui/cli"
)

// snapshotOpts are the snapshot command's own flags.
type snapshotOpts struct {
	format     string
	backendIDs bool
	out        string
	stats      bool
	shot       string
	marks      bool
	view       cli.ViewFlags
	capture    string
	direct     bool
	session    string // an agent session's tab, through the service
	loadAll    bool   // scroll to the end until the page stops growing first
}

func snapshotCommand(getenv func(string) string) *cobra.Command {
	var conn connFlags
	var o snapshotOpts
	cmd := &cobra.Command{
		Use:   "snapshot",
		Short: "Print one snapshot of a page and exit",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn.given(cmd.Flags())
			return runSnapshot(cmd.Context(), conn, o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fs := cmd.Flags()
	conn.register(fs)
	fs.StringVar(&o.format, "format", "text", "output format: json, text, tree or compact (seed 003: i, r, n, v, s, xy, box, f, occ, scr)")
	fs.BoolVar(&o.backendIDs, "backend-ids", false, "add \"backendNodeId\" to every node in json output")
	fs.StringVar(&o.out, "out", "", "write the output to this file instead of stdout")
	fs.BoolVar(&o.stats, "stats", false, "print token count (o200k), tier counts, node count and timings to stderr")
	fs.StringVar(&o.shot, "screenshot", "", "also save the page's viewport as a PNG at its CSS size to this file")
	o.view.Register(fs)
	fs.StringVar(&o.capture, "capture", "cdp", "experimental: cdp (default), page (roles and names from a script in the page), or compare (print where the two differ)")
	fs.BoolVar(&o.direct, "direct", false, "attach and capture here even when domscope serve runs for this endpoint")
	fs.BoolVar(&o.marks, "marks", false, "with --screenshot: draw the flattened view's ids ([N]) as numbered boxes; list those not on it on stderr")
	fs.BoolVar(&o.loadAll, "load-all", false, "first scroll the page to its end until it stops growing (an infinite feed), at most 30 rounds and 30 s, then back")
	fs.StringVar(&o.session, "session", getenv("DOMSCOPE_SESSION"), "the view of this agent session's tab, as dom_snapshot answers (default $DOMSCOPE_SESSION)")
	return cmd
}

func runSnapshot(ctx context.Context, conn connFlags, o snapshotOpts, stdout, stderr io.Writer) error {
	serve.Mark("parsed")
	defer serve.PrintTiming(os.Stderr)
	if err := o.check(); err != nil {
		return err
	}
	if o.session != "" {
		return snapshotInSession(ctx, conn, o, stdout, stderr)
	}
	if serve.InProcess(ctx) != nil {
		return errDirect // a snapshot of its own attaches
	}
	ctx, cancel := context.WithTimeout(ctx, conn.timeout)
	defer cancel()
	mode := os.Getenv("DOMSCOPE_CAPTURE")
	if servable(conn, o, mode) {
		text, ok, err := serve.Ask(ctx, serve.SocketPath(conn.endpoint), o.request(conn, cli.From(ctx)))
		if err != nil {
			return served(err)
		}
		if ok {
			defer serve.Mark("printed")
			return o.write(text)
		}
	}
	tuneGC(os.Getenv)

	s, err := conn.openSnapshot(ctx, mode)
	if err != nil {
		return err
	}
	defer s.Close()

	st := cli.From(ctx)
	if o.capture == "compare" {
		return comparePaths(ctx, s.page, o, build.Options{Disabled: st.TierOff})
	}
	if o.loadAll {
		r, err := query.LoadAll(ctx, s.page.Call, s.page.TargetID())
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "load-all: %d rounds, the page grew %.0f → %.0f px\n", r.Rounds, r.From, r.To)
	}
	take := takeSnapshot(mode)
	if o.capture == "page" {
		take = capture.TakePage
	}
	// Printed and dropped: the capture's JSON is let go as it is decoded.
	snap, err := take(ctx, s.page, build.Options{Disabled: st.TierOff, Lean: true})
	if err != nil {
		if perr := probeFailed(ctx, s.page); perr != nil {
			return perr
		}
		return err
	}
	opts, err := o.viewOptions(snap, st.FlattenOff, pageQuery(ctx, s.page, snap))
	if err != nil {
		return err
	}
	if o.format != "tree" {
		// scroll and covered marks; without them the view still stands
		opts.Look, _ = query.ReadLook(ctx, s.page.Call, snap, s.page.TargetID(), opts.Covered)
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
		if err := screenshot.Save(ctx, s.page, snap, sd, o.shot, o.marks, os.Stderr); err != nil {
			return err
		}
	}
	if o.stats {
		render.Stats(os.Stderr, snap, text, o.format, snap.CaptureTime, snap.BuildTime, flattenTime)
	}
	return nil
}

// check refuses options that make no sense. The server runs it on each
// request too: one set of rules for both paths.
func (o snapshotOpts) check() error {
	if !render.KnownFormat(o.format) {
		return usageError{fmt.Sprintf("unknown --format %q: want json, text, tree or compact", o.format)}
	}
	switch o.capture {
	case "cdp", "page", "compare":
	default:
		return usageError{fmt.Sprintf("unknown --capture %q: want cdp, page or compare", o.capture)}
	}
	if o.capture == "compare" && (o.shot != "" || o.out != "") {
		return usageError{"--capture compare prints its own report: drop --screenshot and --out"}
	}
	if o.loadAll && o.capture == "compare" {
		return usageError{"--load-all scrolls the page before one capture: drop --capture compare"}
	}
	if o.marks && o.shot == "" {
		return usageError{"--marks draws on the screenshot: give --screenshot FILE.png too"}
	}
	return o.view.Check(o.format)
}

// flattenOptions are the options snapshot's views are flattened with:
// the settings' rules off, backend ids, and the view flags.
func (o snapshotOpts) flattenOptions(ctx context.Context, p dom.Page, snap *dom.Snapshot) (dom.Options, error) {
	return o.viewOptions(snap, cli.From(ctx).FlattenOff, pageQuery(ctx, p, snap))
}

// viewOptions are flattenOptions with the flatten rules off given.
// pageQuery runs selectors on p, mapped to nodes of snap.
func pageQuery(ctx context.Context, p dom.Page, snap *dom.Snapshot) func(sel string) ([]*dom.VirtualNode, error) {
	return func(sel string) ([]*dom.VirtualNode, error) {
		return query.QueryCSS(ctx, p.Call, snap, p.TargetID(), sel)
	}
}

func (o snapshotOpts) viewOptions(snap *dom.Snapshot, flattenOff map[string]bool, q func(sel string) ([]*dom.VirtualNode, error)) (dom.Options, error) {
	opts, err := o.render(flattenOff).Options(snap, q)
	if err != nil {
		return opts, fmt.Errorf("--selector: %w", err)
	}
	return opts, nil
}

// printed is what snapshot prints of snap, served or direct: one
// renderer (dom/render) for the CLI, serve and mcp.
func (o snapshotOpts) printed(snap *dom.Snapshot, opts dom.Options) (string, *dom.SerializedDom, error) {
	return o.render(opts.Disabled).Print(snap, opts)
}

// write puts the printed view in --out or on stdout.
func (o snapshotOpts) write(text string) error {
	if o.out != "" {
		return dom.WritePrivate(o.out, []byte(text))
	}
	_, err := io.WriteString(os.Stdout, text)
	return err
}

// snapshotMemoryLimit is the snapshot command's soft memory limit (see
// runtime/debug.SetMemoryLimit). The GC works harder near it. It never
// fails an allocation.
const snapshotMemoryLimit = 120 << 20

// tuneGC sets the garbage collector for a one-shot snapshot, unless
// GOMEMLIMIT or GOGC say otherwise.
//   - A soft memory limit keeps the heap near what is live: about 90 MB
//     on a 50,000-element page, not twice that.
//   - Under that limit the GC does not run at all. A snapshot lives for
//     a fraction of a second, and most of what it allocates stays live
//     until it prints. Collecting early cost 10-18% of its CPU on
//     10,000-element pages, on two cores it shares with Chrome.
//
// It reports whether it turned the GC off.
func tuneGC(getenv func(string) string) bool {
	if getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetMemoryLimit(snapshotMemoryLimit)
	if getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(-1)
	return true
}
