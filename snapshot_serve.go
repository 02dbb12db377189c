package main

import (
	"context"
	"errors"
	"os"
	"strings"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/tui/cli"

	"domscope/dom/render"
	"domscope/dom/serve"
)

// request is what o asks of the server.
func (o snapshotOpts) request(conn connFlags, st *cli.Settings) serve.Request {
	return serve.Request{
		Protocol: serve.Protocol, Target: conn.target, Format: o.format, BackendIDs: o.backendIDs,
		Shape: o.view.Shape, MaxTokens: o.view.MaxTokens,
		TierOff: st.TierOff, FlattenOff: st.FlattenOff, Timeout: conn.timeout,
	}
}

// render is how o prints a view, on either path.
func (o snapshotOpts) render(flattenOff map[string]bool) render.View {
	return render.View{Format: o.format, BackendIDs: o.backendIDs, Shape: o.view.Shape, MaxTokens: o.view.MaxTokens, FlattenOff: flattenOff}
}

// servable says whether a server may answer this snapshot. What it does
// not do (emulation, screenshots, stats, other capture paths, a tab of
// its own) goes direct.
func servable(conn connFlags, o snapshotOpts, mode string) bool {
	if o.direct || mode == classicCapture || o.capture != "cdp" || o.shot != "" || o.stats || o.loadAll {
		return false
	}
	if conn.launch || conn.demo || conn.url != "" || conn.viewport != "" || conn.device != "" || conn.scale != 0 {
		return false
	}
	return conn.allowRemote || serve.Loopback(conn.endpoint)
}

// served is a served error as this command reports it: bad input keeps
// the usage exit code.
func served(err error) error {
	var se *serve.Error
	if errors.As(err, &se) && se.Usage {
		return usageError{se.Text}
	}
	var ue render.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Msg}
	}
	return err
}

// comparePaths is `snapshot --capture compare`: the page taken by CDP and
// by the page walker, and how they and their views differ.
func comparePaths(ctx context.Context, p dom.Page, o snapshotOpts, bo build.Options) error {
	cdp, page, d, err := capture.ComparePaths(ctx, p, bo)
	if err != nil {
		return err
	}
	report, err := render.Compare(d.Text(), cdp, page, func(snap *dom.Snapshot, format string) (string, error) {
		opts, err := o.flattenOptions(ctx, p, snap)
		if err != nil {
			return "", err
		}
		v := o.render(opts.Disabled)
		v.Format = format
		text, _, err := v.Print(snap, opts)
		return strings.TrimSuffix(text, "\n"), err
	})
	if err != nil {
		return err
	}
	_, err = os.Stdout.WriteString(report)
	return err
}
