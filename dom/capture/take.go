package capture

import (
	"context"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/cdpjson"
)

// Take captures the page and builds its snapshot, recording how long each
// half took. Build records BuildTime. Take adds CaptureTime, and the start
// as Taken. The service, the snapshot command and the tests take
// snapshots through it. A saved capture is rebuilt with Build alone.
//
// The page's parts are decoded as they arrive (see sink). The snapshot
// is the one TakeWhole builds.
func Take(ctx context.Context, p dom.Page, opts build.Options) (*dom.Snapshot, error) {
	return take(ctx, p, opts, newSink())
}

// TakeWhole is Take without streaming: the whole capture first, then
// Build. It is kept to compare the two (DOMSCOPE_CAPTURE=classic).
func TakeWhole(ctx context.Context, p dom.Page, opts build.Options) (*dom.Snapshot, error) {
	return take(ctx, p, opts, nil)
}

func take(ctx context.Context, p dom.Page, opts build.Options, k *sink) (*dom.Snapshot, error) {
	start := time.Now()
	raw, err := capture(ctx, p, k)
	if err != nil {
		k.wait()
		return nil, err
	}
	captured := time.Now()
	dom.ReportPhase(ctx, "building")
	var snap *dom.Snapshot
	if early := k.result(&raw.Targets[0]); early != nil {
		snap, err = buildEarly(raw, early, opts, captured)
	} else {
		snap, err = build.Build(raw, opts)
	}
	if err != nil {
		return nil, err
	}
	snap.Taken = start
	snap.CaptureTime = captured.Sub(start)
	return snap, nil
}

// buildEarly is build.Build for a capture whose page was decoded as it
// came. Its out-of-process frames are decoded now, as Build does.
func buildEarly(raw *dom.RawCapture, early *cdpjson.Early, opts build.Options, start time.Time) (*dom.Snapshot, error) {
	page, err := cdpjson.DecodeTargetEarly(&raw.Targets[0], opts.Lean, early)
	if err != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, err, "cannot read the page's DOM from the capture")
	}
	c := &cdpjson.Capture{Raw: raw, Targets: []*cdpjson.Target{page}}
	for i := 1; i < len(raw.Targets); i++ {
		ti, err := cdpjson.DecodeTarget(&raw.Targets[i], opts.Lean)
		if err != nil {
			ti = cdpjson.EmptyTarget(&raw.Targets[i])
		}
		c.Targets = append(c.Targets, ti)
	}
	snap, err := build.FromDecoded(c, opts, start)
	if snap != nil && opts.Lean {
		snap.Raw = nil
	}
	return snap, err
}
