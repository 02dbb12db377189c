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
	_ = time.Now()
	return nil, Errorf(SnapshotFailed, nil, "the capture engine is not built in yet")
}
