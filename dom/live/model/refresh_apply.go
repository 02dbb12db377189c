package model

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/urls"
)

// addSettled adds the AX facts settle read, of nodes inserted while the
// page was read, and checks the refresh is still small. m.mu is held.
func (r *refreshRun) addSettled(ins axBatch) string {
	maps.Copy(r.ax, ins.ax)
	maps.Copy(r.included, ins.included)
	r.ids = append(r.ids, ins.ids...)
	r.axSecrets = append(r.axSecrets, ins.secrets...)
	if len(r.ids) > maxAXRefresh {
		r.m.broken = fmt.Sprintf("%d nodes changed", len(r.ids))
		return r.m.broken
	}
	return ""
}

// apply writes what the refresh read into the model and builds the
// snapshot: from the tree built ahead when it stands, else anew. m.mu
// is held.
func (r *refreshRun) apply() (*dom.Snapshot, string, error) {
	m := r.m
	if r.applyModel() {
		if out, ok := r.ah.finish(m, r.oldLayout, r.ids, r.stateChanged); ok {
			out.Taken = r.start
			// the build overlapped the wait: the two add up to the refresh
			out.CaptureTime = time.Since(r.start) - out.BuildTime
			return out, "", nil
		}
	}
	captured := time.Now()
	out, err := m.buildLocked(r.opts, captured)
	if err != nil {
		return nil, "", err
	}
	out.Taken = r.start
	out.CaptureTime = captured.Sub(r.start)
	return out, "", nil
}

// applyModel writes the refresh's reads into the model. It says whether
// the tree built ahead stands: the model is as it was built from, but
// for this refresh's AX facts and layout. No box may have appeared,
// gone or changed style. m.mu is held.
func (r *refreshRun) applyModel() (keepAhead bool) {
	m, fresh := r.m, r.fresh
	keepAhead = r.ah != nil && m.version == r.ah.version && len(r.boxChanged) == 0 &&
		len(r.frames) == 0 && len(r.frameIdx) == 0
	m.version++
	r.applyAX()
	r.applyListeners()
	m.ti.Boxes, m.ti.Layout, m.ti.Listed, m.ti.Strings, m.ti.Values, m.ti.Selected, m.ti.Checked, m.ti.DocViewport =
		fresh.Boxes, fresh.Layout, fresh.Listed, fresh.Strings, fresh.Values, fresh.Selected, fresh.Checked, fresh.DocViewport
	m.focused, m.axFocused = r.focus, nil
	m.guarded, m.partialWhy = true, r.partialWhy
	if r.partialWhy != "" {
		m.fullBoxes = len(fresh.Layout)
	}
	m.raw.Title, m.raw.Viewport = r.title, r.viewport
	m.ti.Raw.Viewport = r.viewport
	// A same-document navigation (history.pushState) sends no DOM event.
	if safe := urls.Safe(r.url); r.url != "" && safe != m.raw.URL {
		m.raw.URL, m.ti.Raw.URL = safe, safe
		keepAhead = false // it shows the old address
	}
	m.setFrames(r.frameIdx)
	m.raw.Timestamp = r.start.UTC().Format(time.RFC3339Nano)
	if !r.applySecrets() {
		keepAhead = false
	}
	return keepAhead
}

// applyAX puts the AX facts fetched again into the model. m.mu is held.
func (r *refreshRun) applyAX() {
	m := r.m
	for _, id := range r.ids {
		// An ignored node is in the model only when Chrome's tree has it.
		if a := r.ax[id]; a != nil && (!a.Ignored || r.included[id]) {
			m.ti.AX[id] = a
		} else {
			delete(m.ti.AX, id)
		}
	}
}

// applyListeners replaces the listeners of the inserted subtrees with
// those fetched. m.mu is held.
func (r *refreshRun) applyListeners() {
	m := r.m
	for _, id := range r.roots {
		if n := m.byBack[id]; n != nil {
			n.Each(func(x *cdpjson.Node) { delete(m.ti.Listeners, x.BackendNodeID) })
		}
	}
	for _, l := range r.listeners {
		if cdpjson.ClickFamily[l.Type] || l.Type == "" {
			m.ti.Listeners[l.BackendID] = true
		}
	}
}

// applySecrets scrubs the model of the sensitive values and URL
// credentials the refresh found. It says whether a tree built before
// still stands. m.mu is held.
func (r *refreshRun) applySecrets() (keepAhead bool) {
	m := r.m
	keepAhead = true
	secrets := dom.CleanSecrets(slices.Concat(m.secrets, r.layoutSecrets, r.axSecrets, r.frameSecrets))
	m.secrets = nil
	if len(secrets) > 0 {
		keepAhead = false // built before they were scrubbed
		m.scrubSecrets(secrets)
	}
	// A capture hides its URLs' credentials in every string. New ones
	// came with the address, inserted links or the frames read again.
	learnt := m.learnURLSecrets(r.url, r.dirty, r.ax, r.frameURLSecrets)
	if learnt {
		keepAhead = false // built from the strings before
	}
	moved := learnt || len(r.dirty)+len(r.touched)+len(r.ids)+len(r.stateChanged)+len(r.frameIdx) > 0 || r.partialWhy != ""
	if len(m.urlSecrets) > 0 && moved && m.hideURLSecrets() {
		keepAhead = false
	}
	return keepAhead
}

// pendingSecrets are the sensitive values events brought since the last
// refresh (not yet scrubbed from the model).
func (m *Model) pendingSecrets() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.secrets)
}

// scrubSecrets removes the values of sensitive fields from every string of
// the model, as capture.Scrub does in a capture.
func (m *Model) scrubSecrets(secrets []string) {
	scrub := func(s string) string {
		for _, sec := range secrets {
			s = dom.ScrubString(s, sec)
		}
		return s
	}
	m.ti.Root.Each(func(x *cdpjson.Node) {
		x.NodeValue = scrub(x.NodeValue)
		for i := 1; i < len(x.Attributes); i += 2 {
			if x.Attributes[i] != dom.Mask {
				x.Attributes[i] = scrub(x.Attributes[i])
			}
		}
	})
	for _, a := range m.ti.AX {
		a.Name = scrub(a.Name)
		if a.Value != dom.Mask {
			a.Value = scrub(a.Value)
		}
	}
	for i, s := range m.ti.Strings {
		if s != dom.Mask {
			m.ti.Strings[i] = scrub(s)
		}
	}
	for id, v := range m.ti.Values {
		if v != dom.Mask {
			m.ti.Values[id] = scrub(v)
		}
	}
	m.raw.Title = scrub(m.raw.Title)
}
