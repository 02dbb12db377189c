package capture

import (
	"context"
	"time"

	"domscope/dom"
	"domscope/dom/build"
)

// Take captures the page and builds its snapshot, recording how long each
// half took (Build records BuildTime; Take adds CaptureTime and the start
// as Taken). The service, the snapshot command and the tests take
// snapshots through it; a saved capture is rebuilt with Build alone.
func Take(ctx context.Context, p dom.Page, opts build.Options) (*dom.Snapshot, error) {
	start := time.Now()
	raw, err := Capture(ctx, p)
	if err != nil {
		return nil, err
	}
	captured := time.Now()
	dom.ReportPhase(ctx, "building")
	snap, err := build.Build(raw, opts)
	if err != nil {
		return nil, err
	}
	snap.Taken = start
	snap.CaptureTime = captured.Sub(start)
	return snap, nil
}
