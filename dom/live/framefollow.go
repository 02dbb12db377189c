package live

import (
	"context"
	"slices"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/live/model"
)

// The page's model reads its out-of-process frames whole at each
// refresh and follows none of their events. A toast that comes and goes
// inside one between two reads would be missed. So each such frame is
// followed on its own session: a small model of its document, made from
// its last read and kept current by its DOM events, feeds the witness.
// It answers no reads; it only tells the witness what came and went.

// frameFollows are the followed frames of the page (guarded by mu).
type frameFollows struct {
	mu   sync.Mutex
	page dom.Page
	by   map[string]*frameFollow
	// asked is when each frame's session was last asked for: one whose
	// session cannot be had is not asked for at every read. A new frame
	// is asked for at once: an action right after it came must see it.
	asked map[string]time.Time
	scope int64 // the last scope given
}

// frameFollow follows one out-of-process frame.
type frameFollow struct {
	mu    sync.Mutex
	scope int64
	// m is the frame's model, made from read (a decoded frame of the
	// page's model); nil before the first.
	m    *model.Model
	read *cdpjson.Target
	// prev is the model before m. Events sent before m's read may reach
	// us after it: they name prev's nodes, and prev applies them.
	prev *model.Model
	// since are the events that came since m was made. The next read's
	// model applies them again: those that name its nodes came after it.
	since []dom.EventMessage
	// sess is the frame's session, ctx the page's life; asked are the
	// nodes whose children were asked for (node ids of m).
	page  dom.Page
	sess  dom.Session
	ctx   context.Context
	asked map[int64]bool
}

// frameAskGap is the least time between two askings for frame sessions.
const frameAskGap = time.Second

// maxFrameEvents bounds what a frame keeps between two reads.
const maxFrameEvents = 4000

// followFrames follows the out-of-process frames page's model m read
// last: their new reads become their models. A frame not followed yet
// gets its session's DOM events from now on.
func (s *Service) followFrames(ctx context.Context, page dom.Page, m *model.Model) {
	if m == nil || happenedOff.Load() {
		return
	}
	reads, secrets := m.FrameReads()
	ff := &s.frameFol
	ff.mu.Lock()
	if ff.page != page {
		ff.page, ff.by, ff.asked = page, map[string]*frameFollow{}, map[string]time.Time{}
	}
	var fresh []string
	now := time.Now()
	for _, ti := range reads {
		id := ti.Raw.TargetID
		if ti.Root != nil && ff.by[id] == nil && now.Sub(ff.asked[id]) >= frameAskGap {
			fresh = append(fresh, id)
			ff.asked[id] = now
		}
	}
	if len(ff.asked) > maxFrameEvents {
		ff.asked = map[string]time.Time{} // frames that came and went
	}
	ff.mu.Unlock()
	if len(fresh) > 0 {
		s.subscribeFrames(ctx, page, fresh)
	}
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if ff.page != page {
		return
	}
	for _, ti := range reads {
		if f := ff.by[ti.Raw.TargetID]; f != nil {
			f.install(ti, secrets, s.wit)
		}
	}
}

// subscribeFrames starts following the frames ids of page on their
// sessions, until the page is left or the frame goes.
func (s *Service) subscribeFrames(ctx context.Context, page dom.Page, ids []string) {
	frames, err := page.Frames(ctx)
	if err != nil {
		return
	}
	s.mu.Lock()
	pctx := s.pageCtx
	current := s.page == page
	s.mu.Unlock()
	if !current {
		return
	}
	ff := &s.frameFol
	for _, ft := range frames {
		oe, ok := ft.Session.(dom.OrderedEvents)
		if !ok || !slices.Contains(ids, ft.TargetID) {
			continue
		}
		ff.mu.Lock()
		if ff.page != page || ff.by[ft.TargetID] != nil {
			ff.mu.Unlock()
			continue
		}
		ff.scope++
		f := &frameFollow{scope: ff.scope, page: page, sess: ft.Session, ctx: pctx, asked: map[int64]bool{}}
		ff.by[ft.TargetID] = f
		ff.mu.Unlock()
		ch, cancel := oe.SubscribeOrdered(liveEvents...)
		rctx, rcancel := context.WithTimeout(pctx, s.cfg.CallTimeout)
		s.recordFlashes(rctx, ft.Session)
		rcancel()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer cancel()
			for {
				select {
				case ev, ok := <-ch:
					if !ok {
						// The frame went: a frame that comes back under
						// this id is followed anew.
						ff.mu.Lock()
						if ff.by[ft.TargetID] == f {
							delete(ff.by, ft.TargetID)
						}
						ff.mu.Unlock()
						return
					}
					f.apply(s, ev)
				case <-pctx.Done():
					return
				}
			}
		}()
	}
}

// apply hands one of the frame's events to its model, and keeps it for
// the next read's. A change in the frame is a change of the page: the
// action that caused it settles on it, and a read begun before it is
// stale.
func (f *frameFollow) apply(s *Service, ev dom.EventMessage) {
	f.mu.Lock()
	if len(f.since) >= maxFrameEvents {
		f.since = f.since[1:]
	}
	f.since = append(f.since, ev)
	var ask []int64
	if f.prev != nil {
		f.prev.Apply(ev) // an event that names m's nodes only breaks it
	}
	if f.m != nil {
		f.m.Apply(ev)
		if ev.Method == "DOM.childNodeInserted" || ev.Method == "DOM.shadowRootPushed" {
			// Chrome sends an inserted element's children only when it
			// has one text: a toast with an icon comes bare. Its text is
			// asked for now, while it is there (DOM.setChildNodes).
			for _, id := range f.m.CutNodes() {
				if !askCutOff.Load() && !f.asked[id] && len(f.asked) < maxFrameEvents {
					f.asked[id] = true
					ask = append(ask, id)
				}
			}
		}
	}
	f.mu.Unlock()
	if ev.Method != "DOM.setChildNodes" && ev.Method != "Runtime.bindingCalled" { // asks' answers, the recorder
		s.noteFrameChange(f.page)
	}
	for _, id := range ask {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			ctx, cancel := context.WithTimeout(f.ctx, s.cfg.CallTimeout)
			defer cancel()
			_ = f.sess.Call(ctx, "DOM.requestChildNodes", map[string]any{"nodeId": id, "depth": -1, "pierce": true}, nil)
		}()
	}
}

// noteFrameChange counts a DOM change in a followed frame of page p, as
// settling and the early read count the page's own. It is timed now:
// the times noted must come in order.
func (s *Service) noteFrameChange(p dom.Page) {
	s.mu.Lock()
	at := time.Now()
	defer s.mu.Unlock()
	if s.page != p {
		return
	}
	t := &s.track
	t.mutations++
	t.lastChange = at
	s.noteMutationLocked(at)
	close(t.changed)
	t.changed = make(chan struct{})
}

// install makes a new read of the frame its model, unless it has it.
// The read is the page model's: the frame's model works on a copy.
func (f *frameFollow) install(ti *cdpjson.Target, secrets []string, w *witness) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.read == ti {
		return
	}
	m := model.NewFrameModel(ti, f.scope, secrets)
	m.Watch(w)
	// Those from before the read name nodes by older ids: skipped.
	m.Apply(f.since...)
	f.prev, f.m, f.read, f.since, f.asked = f.m, m, ti, nil, map[int64]bool{}
}
