package model

import (
	"context"
	"slices"
	"time"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// fetchFrames lists the out-of-process frames and has their own
// renderers read them whole, while this one makes its layout.
func (r *refreshRun) fetchFrames(ctx context.Context) error {
	frames, err := r.p.Frames(ctx)
	r.frames = frames
	if err == nil && len(frames) > 0 {
		r.frameTargets = capture.FrameTargets(ctx, r.p, frames, func(string, time.Time) {})
	}
	return err
}

// decodeFrames decodes the frames fetchFrames read, redacted of the
// sensitive values the page's reads found (readFrames on the model).
func (r *refreshRun) decodeFrames(ctx context.Context) {
	m := r.m
	pageSecrets := append(append(slices.Clone(r.layoutSecrets), r.axSecrets...), m.pendingSecrets()...)
	r.frameIdx, r.frameSecrets, r.frameURLSecrets = m.readFrames(ctx, r.p, r.frames, r.frameTargets, r.viewport, pageSecrets)
}

// readFrames places, redacts and decodes the out-of-process frames a
// refresh captured, as Capture does with the whole page. Sensitive
// values leave every frame's data before it is decoded: the frames' own
// and the page's (pageSecrets). So do URL credentials, the page's and
// the frames'. It returns the frames' decoded targets, their own
// secrets, which the page is scrubbed of, and the URL credentials.
func (m *Model) readFrames(ctx context.Context, p dom.Page, frames []dom.FrameTarget, captured []dom.RawTarget, viewport dom.Rect, pageSecrets []string) ([]*cdpjson.Target, []string, []string) {
	if len(captured) == 0 {
		return nil, nil, nil
	}
	m.mu.Lock()
	page := *m.ti.Raw
	known := m.urlSecrets
	m.mu.Unlock()
	// The page's same-process frames are placed by its own reads; only
	// the out-of-process ones are placed here.
	page.Frames = slices.Clone(page.Frames[:min(1, len(page.Frames))])
	page.Viewport = viewport
	raw := &dom.RawCapture{TargetID: p.TargetID(), Targets: append([]dom.RawTarget{page}, captured...)}
	capture.PlaceFrames(ctx, p, frames, raw)
	capture.ScrubURLsKnown(raw, known)
	own, _ := capture.ScrubTargets(raw.Targets[1:], pageSecrets)
	out := make([]*cdpjson.Target, 0, len(captured))
	for i := 1; i < len(raw.Targets); i++ {
		rt := &raw.Targets[i]
		ti, err := cdpjson.DecodeTarget(rt, true)
		if err != nil {
			ti = cdpjson.EmptyTarget(rt)
		}
		out = append(out, ti)
	}
	return out, own, raw.URLSecrets
}

// setFrames makes frames the model's out-of-process frames: their
// metadata joins the page's in raw.Targets. m.mu is held.
func (m *Model) setFrames(frames []*cdpjson.Target) {
	if len(frames) == 0 && len(m.frames) == 0 {
		return
	}
	targets := make([]dom.RawTarget, 1+len(frames))
	targets[0] = *m.ti.Raw
	m.ti.Raw = &targets[0]
	for i, f := range frames {
		targets[i+1] = *f.Raw
		f.Raw = &targets[i+1]
	}
	m.raw.Targets = targets
	m.frames = frames
}
