package dom

import (
	"context"
	"time"
)

// Take captures the page and builds its snapshot, recording how long each
// half took (Build records BuildTime; Take adds CaptureTime and the start
// as Taken). The service, the snapshot command and the tests take
// snapshots through it; a saved capture is rebuilt with Build alone.
func Take(ctx context.Context, p Page, opts BuildOptions) (*Snapshot, error) {
	start := time.Now()
	raw, err := Capture(ctx, p)
	if err != nil {
		return nil, err
	}
	captured := time.Now()
	ReportPhase(ctx, "building")
	snap, err := Build(raw, opts)
	if err != nil {
		return nil, err
	}
	snap.Taken = start
	snap.CaptureTime = captured.Sub(start)
	return snap, nil
}

// Rebuild builds a snapshot again from its raw capture with other tier
// rules switched off, keeping every node ID and the capture's sequence
// number, time and cost (no new capture is taken).
func Rebuild(s *Snapshot, disabled map[string]bool) (*Snapshot, error) {
	if !s.HasCapture() {
		return nil, Errorf(SnapshotFailed, nil, "this snapshot has no raw capture to rebuild from")
	}
	var ns *Snapshot
	var err error
	if s.Source != nil {
		ns, err = s.Source.Rebuild(s, disabled)
	} else {
		ns, err = Build(s.Raw, BuildOptions{Prev: s, Disabled: disabled})
	}
	if err != nil {
		return nil, err
	}
	ns.Seq, ns.Taken, ns.CaptureTime = s.Seq, s.Taken, s.CaptureTime
	if ns.TargetID == "" {
		ns.TargetID = s.TargetID
	}
	return ns, nil
}
