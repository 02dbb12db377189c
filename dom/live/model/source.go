package model

import (
	"time"

	"domscope/dom"
	"domscope/dom/build"
)

// modelSource is where a snapshot built from a live model gets its
// capture. That is the model, while it is as it was at the build.
type modelSource struct {
	m       *Model
	version uint64
}

// Capture writes the model out as the capture s was built from, while
// the model is as it was then.
func (src *modelSource) Capture(s *dom.Snapshot) (*dom.RawCapture, error) {
	m := src.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := src.outdated(); err != nil {
		return nil, err
	}
	raw, err := m.decoded().Encode()
	if err != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, err, "writing the live model as a capture")
	}
	raw.Timestamp = s.Stamp
	return raw, nil
}

// Rebuild builds the model again with other tier rules, keeping s's IDs.
func (src *modelSource) Rebuild(s *dom.Snapshot, disabled map[string]bool) (*dom.Snapshot, error) {
	return src.rebuild(build.Options{Prev: s, Disabled: disabled})
}

// rebuild builds the model again with other options, while it is as it was
// when the snapshot was built.
func (src *modelSource) rebuild(opts build.Options) (*dom.Snapshot, error) {
	src.m.mu.Lock()
	defer src.m.mu.Unlock()
	if err := src.outdated(); err != nil {
		return nil, err
	}
	return src.m.buildLocked(opts, time.Now())
}

// outdated is the error of a source the model has moved on from (nil when
// it has not). Callers hold the model's lock.
func (src *modelSource) outdated() error {
	if src.m.version != src.version {
		return dom.Errorf(dom.SnapshotFailed, dom.ErrPageChanged, "this snapshot cannot be written out (take a new one)")
	}
	return nil
}
