package dom

import (
	"context"
	"time"
)

// snapshotter is how the service captures: the config's hook, or the
// engine's Capture followed by Build (IDs carried over from prev).
func (s *Service) snapshotter() func(ctx context.Context, p Page, prev *Snapshot) (*Snapshot, error) {
	if s.cfg.Snapshotter != nil {
		return s.cfg.Snapshotter
	}
	return s.captureAndBuild
}

func (s *Service) captureAndBuild(ctx context.Context, p Page, prev *Snapshot) (*Snapshot, error) {
	start := time.Now()
	raw, err := Capture(ctx, p)
	if err != nil {
		return nil, err
	}
	captured := time.Now()
	snap, err := Build(raw, BuildOptions{Prev: prev, Disabled: s.cfg.Disabled})
	if err != nil {
		return nil, err
	}
	snap.Taken = start
	if snap.CaptureTime == 0 {
		snap.CaptureTime = captured.Sub(start)
	}
	if snap.BuildTime == 0 {
		snap.BuildTime = time.Since(captured)
	}
	return snap, nil
}
