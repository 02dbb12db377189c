package live

import (
	"context"
	"slices"
	"sync/atomic"

	"domscope/dom"
	"domscope/dom/live/model"
)

// Chrome sends an inserted element's children only when it holds one
// text. A toast with an icon comes bare, and the model asks for its
// children at the next refresh. A toast gone by then flashed with no
// text: the witness could not say it. So the children of such nodes
// are asked for as they come, while they are there.

// askCutOff stops these asks, so a test can see what the page's
// recorder alone gives (flashrec.go): a loaded machine's late ask.
var askCutOff atomic.Bool

// maxCutAsks bounds the nodes asked for so per model: a page that
// keeps inserting such nodes costs one call each only so far.
const maxCutAsks = 256

// askCut asks for the children of the nodes batch cut in m.
func (s *Service) askCut(p dom.Page, m *model.Model, batch []dom.EventMessage) {
	if happenedOff.Load() || askCutOff.Load() || !slices.ContainsFunc(batch, func(e dom.EventMessage) bool {
		return e.Method == "DOM.childNodeInserted" || e.Method == "DOM.childNodeCountUpdated"
	}) {
		return
	}
	cut := m.CutNodes()
	s.mu.Lock()
	if s.cutModel != m {
		s.cutModel, s.cutAsked = m, map[int64]bool{}
	}
	var ask []int64
	for _, id := range cut {
		if !s.cutAsked[id] && len(s.cutAsked) < maxCutAsks {
			s.cutAsked[id] = true
			ask = append(ask, id)
		}
	}
	ctx := s.pageCtx
	s.mu.Unlock()
	if ctx == nil {
		return
	}
	for _, id := range ask {
		s.wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
			defer cancel()
			// (gone meanwhile: its removal event follows)
			_ = p.Call(cctx, "DOM.requestChildNodes", map[string]any{"nodeId": id, "depth": -1, "pierce": true}, nil)
		})
	}
}
