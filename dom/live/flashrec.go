package live

import (
	"context"
	_ "embed"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/live/model"
)

// The witness learns a flash from the DOM events. Two things they tell
// badly on a loaded machine: the events arrive in bursts, so their
// times shorten a toast's life below a flash's; and an element inserted
// with more than one child comes bare, and the ask for its children can
// reach the page after a 100 ms toast went. So a recorder in an isolated
// world of each document tells, as each late-born element goes, its life
// by the page's clock and, for a bare one, its subtree. The witness joins
// that to what the events saw.

//go:embed flash_recorder.js
var flashRecorder string

// flashWorld names the recorder's isolated world: the page's own
// scripts see neither it nor its binding.
const flashWorld = "domscope"

// recordFlashes puts the recorder in sess's documents, now and after
// each navigation. Its calls come with the DOM events (liveEvents), in
// order, and the model hands them to the witness. Failures are let go:
// the events still give most flashes.
func (s *Service) recordFlashes(ctx context.Context, sess dom.Session) {
	if happenedOff.Load() {
		return
	}
	if sess.Call(ctx, "Runtime.enable", nil, nil) != nil ||
		sess.Call(ctx, "Runtime.addBinding", map[string]any{"name": model.FlashBinding, "executionContextName": flashWorld}, nil) != nil ||
		sess.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": flashRecorder, "worldName": flashWorld}, nil) != nil {
		return
	}
	// The documents there now: a world in each frame of this session.
	// An open dialog blocks the evaluation: attaching must not wait.
	s.mu.Lock()
	pctx := s.pageCtx
	s.mu.Unlock()
	if pctx == nil {
		return
	}
	s.wg.Go(func() {
		ctx, cancel := context.WithTimeout(pctx, s.cfg.CallTimeout)
		defer cancel()
		var tree struct {
			FrameTree cdpjson.FrameTree `json:"frameTree"`
		}
		if sess.Call(ctx, "Page.getFrameTree", nil, &tree) != nil {
			return
		}
		var ids []string
		tree.FrameTree.Walk(func(f *cdpjson.FrameTree) bool {
			ids = append(ids, f.Frame.ID)
			return true
		})
		for _, id := range ids {
			var w struct {
				ContextID int64 `json:"executionContextId"`
			}
			if sess.Call(ctx, "Page.createIsolatedWorld", map[string]any{"frameId": id, "worldName": flashWorld}, &w) != nil {
				continue // an out-of-process frame: its own session has one
			}
			_ = sess.Call(ctx, "Runtime.evaluate", map[string]any{"expression": flashRecorder, "contextId": w.ContextID}, nil)
		}
	})
}
