package live

import (
	"context"
	"runtime/debug"
	"slices"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/live/model"
)

// liveEvents are the DOM events that keep the live page model current.
var liveEvents = []string{
	"DOM.documentUpdated", "DOM.setChildNodes",
	"DOM.childNodeInserted", "DOM.childNodeRemoved", "DOM.attributeModified",
	"DOM.attributeRemoved", "DOM.characterDataModified", "DOM.childNodeCountUpdated",
	"DOM.shadowRootPushed", "DOM.shadowRootPopped", "DOM.pseudoElementAdded",
	"DOM.pseudoElementRemoved", "DOM.inlineStyleInvalidated",
	"Runtime.bindingCalled", // the flash recorder's (flashrec.go)
}

// bigCapture is the size of capture JSON (about a 20,000-element page)
// above which its memory is given back to the system once it is decoded.
const bigCapture = 32 << 20

// rawBytes is the size of a capture's CDP JSON.
func rawBytes(raw *dom.RawCapture) int {
	n := 0
	for _, t := range raw.Targets {
		n += len(t.Document) + len(t.Layout)
		for _, p := range t.DocumentParts {
			n += len(p)
		}
		for _, a := range t.AXTrees {
			n += len(a)
		}
	}
	return n
}

// maxBuffered bounds the events kept while a full capture is under way.
const maxBuffered = 50000

// maxBatch bounds the events applied to the model at once.
const maxBatch = 512

// followModel feeds page p's DOM events, in the order the browser sent
// them, to the live model. While a full capture is under way (no model
// yet) they are buffered and replayed onto the model it makes.
func (s *Service) followModel(p dom.Page, pctx context.Context) {
	oe, ok := p.(dom.OrderedEvents)
	if !ok || s.cfg.Snapshotter != nil || s.cfg.FullOnly {
		return
	}
	ch, cancel := oe.SubscribeOrdered(append(slices.Clone(liveEvents), dom.MarkEvent)...)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		for {
			select {
			case ev, ok := <-ch:
				if !ok {
					return
				}
				// The events already queued go with it: those of one
				// change of the page are applied together (Apply).
				batch := []dom.EventMessage{ev}
			more:
				for len(batch) < maxBatch {
					select {
					case e, ok := <-ch:
						if !ok {
							break more
						}
						batch = append(batch, e)
					default:
						break more
					}
				}
				var mark int64
				batch = slices.DeleteFunc(batch, func(e dom.EventMessage) bool {
					n := streamMark(e)
					mark = max(mark, n)
					return n > 0
				})
				s.mu.Lock()
				if s.page != p {
					s.mu.Unlock()
					return
				}
				m := s.model
				if m == nil && s.buffering {
					if len(s.buffered)+len(batch) <= maxBuffered {
						s.buffered = append(s.buffered, batch...)
					} else {
						s.bufferLost = true
					}
				}
				s.mu.Unlock()
				if m != nil && len(batch) > 0 {
					m.Apply(batch...)
					s.askCut(p, m, batch)
				}
				if mark > 0 {
					s.marks.reach(mark) // what came before it is applied
				}
			case <-pctx.Done():
				return
			}
		}
	}()
}

// takeSnapshot reads the page. It refreshes the live model incrementally
// when there is one and full is not asked for. Else a full capture starts
// a new model. hint names backend nodes whose state may have
// changed without a DOM event (an action's target).
func (s *Service) takeSnapshot(ctx context.Context, page dom.Page, prev *dom.Snapshot, full bool, hint []int64) (*dom.Snapshot, error) {
	defer func() {
		s.mu.Lock()
		m := s.model
		s.mu.Unlock()
		s.followFrames(ctx, page, m)
	}()
	s.mu.Lock()
	m, off := s.model, s.tierOff
	s.mu.Unlock()
	opts := build.Options{Prev: prev, Disabled: off}
	if m != nil && !full && prev != nil && len(hint) == 0 {
		drain := func(ctx context.Context) error {
			if err := s.drainEvents(ctx, page); err != nil {
				return err
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.model != m {
				return dom.Errorf(dom.SnapshotFailed, nil, "the page model was replaced")
			}
			return nil
		}
		if snap := m.Still(ctx, page, opts, drain); snap != nil {
			s.mu.Lock()
			s.fallback = ""
			s.mu.Unlock()
			snap.Incremental = true
			return snap, nil
		}
	}
	if m != nil && !full && prev != nil {
		snap, why, err := m.Refresh(ctx, page, hint, opts)
		if err != nil {
			return nil, err
		}
		if snap != nil {
			s.mu.Lock()
			s.fallback = ""
			s.mu.Unlock()
			snap.Incremental = true
			return snap, nil
		}
		s.mu.Lock()
		s.fallback = why
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.model, s.buffering, s.buffered, s.bufferLost = nil, true, nil, false
	s.mu.Unlock()
	start := time.Now()
	raw, err := model.CaptureGuarded(ctx, page, capture.Capture, !s.cfg.FullOnly)
	if err != nil {
		s.mu.Lock()
		s.buffering, s.buffered = false, nil
		s.mu.Unlock()
		return nil, err
	}
	captured := time.Now()
	var nm *model.Model
	var freed time.Duration
	if !s.cfg.FullOnly {
		big := rawBytes(raw) >= bigCapture
		var why string
		if nm, why = model.NewModel(raw); nm == nil {
			s.mu.Lock()
			s.fallback = why
			s.mu.Unlock()
		}
		if big {
			// The capture's JSON is garbage now that the model holds it
			// decoded; the pages it took would stay resident under the
			// tree about to be built. Give them back first (counted as
			// building: it is part of making the tree).
			t := time.Now()
			debug.FreeOSMemory()
			freed = time.Since(t)
		}
	}
	var snap *dom.Snapshot
	if nm != nil && s.cfg.FreshDocumentIDs && nm.NewDocument(prev) {
		opts.Prev = nil
	}
	if nm != nil {
		snap, err = nm.Build(opts)
	} else {
		snap, err = build.Build(raw, opts)
	}
	if err != nil {
		return nil, err
	}
	snap.Taken, snap.CaptureTime = start, captured.Sub(start)
	snap.BuildTime += freed
	s.mu.Lock()
	if nm != nil && !s.bufferLost && s.page == page {
		// Events from before the capture name nodes by ids the capture
		// replaced: the model skips those, and applies the rest.
		nm.Watch(s.wit)
		nm.Apply(s.buffered...)
		s.model = nm
	}
	s.buffering, s.buffered = false, nil
	s.mu.Unlock()
	return snap, nil
}

// Fallback says why the last read was a full capture when the live model
// could not refresh ("" when it could, or when there was no model yet).
func (s *Service) Fallback() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fallback
}
