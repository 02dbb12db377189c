package mcp

import (
	"io"
	"sync"

	"domscope/dom"
	"domscope/dom/script"
)

// Recording writes an agent's actions as a `run` script, with the
// stable targets the UI's recorder writes and typed secrets withheld. Its
// Observe is a server's observer (or part of it).
type Recording struct {
	srv *Server

	mu     sync.Mutex
	rec    *script.Recorder
	before map[int]*dom.Snapshot
	step   string // the last action's step line
}

// NewRecording records the actions of srv's calls to w (nil: memory).
func NewRecording(srv *Server, w io.Writer) *Recording {
	return &Recording{srv: srv, rec: script.NewRecorder(w), before: map[int]*dom.Snapshot{}}
}

// Observe notes the page as a call starts and records it as it ends. It
// is safe on a nil Recording.
func (r *Recording) Observe(c Call) {
	if r == nil {
		return
	}
	var snap *dom.Snapshot
	if !c.Done {
		if svc, err := r.srv.service(); err == nil {
			snap = svc.Current()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !c.Done {
		r.before[c.Seq] = snap
		return
	}
	before := r.before[c.Seq]
	delete(r.before, c.Seq)
	r.step = ""
	if c.Action == nil || c.Result == nil {
		return
	}
	if st, ok, _ := r.rec.Record(before, *c.Action, *c.Result, c.Tool); ok {
		if line, err := script.StepLine(st); err == nil {
			r.step = line
		}
	}
}

// Step is the last call's step line ("" when it was no action).
func (r *Recording) Step() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.step
}

// RecordTo records srv's actions to a new private file at path ("":
// none). The file stays open while the program runs.
func RecordTo(srv *Server, path string) (*Recording, error) {
	if path == "" {
		return nil, nil
	}
	f, err := dom.CreatePrivate(path)
	if err != nil {
		return nil, err
	}
	return NewRecording(srv, f), nil
}
