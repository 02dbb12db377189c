package model

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// fetchEarlyAX runs while the browser makes the layout. It asks what is
// sensitive (to redact the replies), then the AX facts of what the DOM
// events, the old focus and the action's target say changed. Those
// calls queue behind the layout and are answered while it is decoded.
// Only what the layout adds is asked for after it (fetchLateAX).
func (r *refreshRun) fetchEarlyAX(ctx context.Context, wg *sync.WaitGroup) {
	m := r.m
	need := r.need
	m.mu.Lock()
	r.inside, r.fields = m.sensitiveSets()
	close(r.setsReady)
	for id := range r.dirty {
		if n := m.byNode[id]; n != nil {
			n.Each(func(x *cdpjson.Node) { need[x.BackendNodeID] = true })
			need[n.BackendNodeID] = false // so addUp walks its ancestors
			m.addUp(need, n)
		}
	}
	for id := range r.touched {
		if n := m.byNode[id]; n != nil {
			m.addUp(need, n)
		}
	}
	for _, id := range append(append([]int64{m.focused}, m.axFocused...), r.hint...) {
		if n := m.byBack[id]; n != nil {
			m.addUp(need, n)
		}
	}
	// A control a script changed: made indeterminate or invalid, its
	// layout may say nothing of it.
	for _, c := range r.guard.controls {
		if n := m.byBack[c.id]; n != nil {
			m.addUp(need, n)
		}
	}
	m.addNamers(need, need)
	ids := m.known(need, nil)
	m.mu.Unlock()
	if len(r.roots) == 0 {
		// The tree is built while Chrome makes the layout, from the
		// last one (ahead.go). It holds m.mu, so it starts only once
		// the sets above are made.
		wg.Go(func() {
			if <-r.cloneDone; r.cloned != nil {
				r.ah = r.cloned
			} else {
				r.ah = m.buildAhead(r.opts)
			}
		})
	}
	r.early = m.fetchAX(ctx, r.p, ids, r.inside, r.fields)
}

// fetchLateAX fetches the AX facts the layout adds: those of the nodes
// whose box, style or state changed, and of the new focus.
func (r *refreshRun) fetchLateAX(ctx context.Context) (string, error) {
	m := r.m
	m.mu.Lock()
	had := maps.Clone(r.need)
	more := map[int64]bool{}
	r.boxChanged, r.stateChanged = layoutDiff(m.ti, r.fresh)
	r.oldLayout = m.ti.Layout
	for _, id := range append(append(r.boxChanged, r.stateChanged...), r.focus) {
		if n := m.byBack[id]; n != nil {
			m.addUp(r.need, n)
		}
	}
	for id := range r.need {
		if _, ok := had[id]; !ok {
			more[id] = true
		}
	}
	m.addNamers(more, r.need)
	late := m.known(r.need, had)
	m.mu.Unlock()
	if r.early.err != nil {
		return "", r.early.err
	}
	r.ids = append(r.early.ids, late...)
	if len(r.ids) > maxAXRefresh {
		m.Break(fmt.Sprintf("%d nodes changed", len(r.ids)))
		return m.Broken(), nil
	}
	b := m.fetchAX(ctx, r.p, late, r.inside, r.fields)
	if b.err != nil {
		return "", b.err
	}
	r.ax, r.included, r.axSecrets = r.early.ax, r.early.included, append(r.early.secrets, b.secrets...)
	maps.Copy(r.ax, b.ax)
	maps.Copy(r.included, b.included)
	return "", nil
}

// addUp adds n and its ancestors to need, up to the first already in it.
func (m *Model) addUp(need map[int64]bool, n *cdpjson.Node) {
	for x := n; x != nil && !need[x.BackendNodeID]; x = m.parent[x.NodeID] {
		need[x.BackendNodeID] = true
	}
}

// known lists the nodes of need that are in the model, leaving out those
// in skip.
func (m *Model) known(need, skip map[int64]bool) []int64 {
	var ids []int64
	for id := range need {
		if _, ok := skip[id]; !ok && m.byBack[id] != nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// axBatch is one round of AX fetches. It holds the nodes asked about,
// their AX facts, and which ignored ones Chrome's tree holds. It also
// holds the sensitive values the replies held.
type axBatch struct {
	ids      []int64
	ax       map[int64]*cdpjson.AXNode
	included map[int64]bool
	secrets  []string
	err      error
}

// fetchAX fetches the AX facts of ids (none beyond maxAXRefresh: the
// caller then takes a full capture).
func (m *Model) fetchAX(ctx context.Context, p dom.Session, ids []int64, inside, fields map[int64]bool) axBatch {
	b := axBatch{ids: ids, ax: map[int64]*cdpjson.AXNode{}, included: map[int64]bool{}}
	if len(ids) == 0 || len(ids) > maxAXRefresh {
		return b
	}
	ax, parents, secrets, err := fetchPartialAX(ctx, p, ids, inside, fields)
	if err != nil {
		b.err = capture.Err(err, "Accessibility.getPartialAXTree")
		return b
	}
	included, err := m.axMembers(ctx, p, parents)
	if err != nil {
		b.err = capture.Err(err, "Accessibility.getChildAXNodes")
		return b
	}
	b.ax, b.included, b.secrets = ax, included, secrets
	return b
}

// addNamers adds to need the nodes that take their name or description
// from a node in of. Those are the referrers of aria-labelledby and
// aria-describedby, the control of a <label for>, and the controls
// inside a <label>.
func (m *Model) addNamers(of, need map[int64]bool) {
	if len(of) == 0 {
		return
	}
	ids := map[string]bool{}
	for id := range of {
		n := m.byBack[id]
		if n == nil || n.NodeType != dom.ElementNode {
			continue
		}
		a := cdpjson.AttrMap(n.Attributes)
		if v := a["id"]; v != "" {
			ids[v] = true
		}
		if strings.EqualFold(n.NodeName, "LABEL") {
			if f := a["for"]; f != "" {
				ids["for:"+f] = true
			}
			n.Each(func(x *cdpjson.Node) {
				switch strings.ToUpper(x.NodeName) {
				case "INPUT", "SELECT", "TEXTAREA", "BUTTON", "METER", "OUTPUT", "PROGRESS":
					need[x.BackendNodeID] = true
				}
			})
		}
	}
	if len(ids) == 0 {
		return
	}
	m.ti.Root.Each(func(x *cdpjson.Node) {
		if x.NodeType != dom.ElementNode || len(x.Attributes) == 0 {
			return
		}
		for i := 0; i+1 < len(x.Attributes); i += 2 {
			switch strings.ToLower(x.Attributes[i]) {
			case "aria-labelledby", "aria-describedby", "aria-owns", "aria-activedescendant", "aria-controls":
				for _, ref := range strings.Fields(x.Attributes[i+1]) {
					if ids[ref] {
						need[x.BackendNodeID] = true
					}
				}
			case "id":
				if ids["for:"+x.Attributes[i+1]] {
					need[x.BackendNodeID] = true
				}
			}
		}
	})
}

// fetchPartialAX fetches the AX node of each backend id, redacted as the
// capture redacts the full tree. A node with no AX node is left out.
// A partial reply also gives ignored nodes the full tree leaves out.
// Chrome keeps only some ignored nodes in its tree, by rules of its own.
// For those, parents maps the backend id to its AX parent's id, which
// axMembers asks about.
func fetchPartialAX(ctx context.Context, p dom.Session, ids []int64, inside, fields map[int64]bool) (map[int64]*cdpjson.AXNode, map[int64]string, []string, error) {
	out, parents := map[int64]*cdpjson.AXNode{}, map[int64]string{}
	var secrets []string
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(8)
	for _, id := range ids {
		g.Go(func() error {
			a, parent, s, err := partialAX(ctx, p, id, inside, fields)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if a != nil {
				out[id] = a
				if parent != "" {
					parents[id] = parent
				}
			}
			secrets = append(secrets, s...)
			return nil
		})
	}
	err := g.Wait()
	return out, parents, secrets, err
}

// partialAX fetches the AX node of one backend id, redacted, with its AX
// parent's id when it is ignored and the secrets the redaction found. The
// node is nil when it went away, its reply could not be checked, or
// Chrome made it up for the reply.
func partialAX(ctx context.Context, p dom.Session, id int64, inside, fields map[int64]bool) (*cdpjson.AXNode, string, []string, error) {
	var blob json.RawMessage
	if err := p.Call(ctx, "Accessibility.getPartialAXTree", map[string]any{"backendNodeId": id, "fetchRelatives": false}, &blob); err != nil {
		if dom.CodeOf(err) == dom.CDPError {
			return nil, "", nil, nil // the node went away
		}
		return nil, "", nil, err
	}
	clean, secrets, err := capture.RedactAX(blob, inside, fields)
	if err != nil {
		return nil, "", nil, nil // not checkable: keep none of it
	}
	got := map[int64]*cdpjson.AXNode{}
	if cdpjson.DecodeAXTree(clean, got) != nil {
		return nil, "", nil, nil
	}
	a := got[id]
	parent := ""
	if a != nil && a.Ignored {
		var r struct {
			Nodes []struct {
				ParentID string `json:"parentId"`
				Backend  int64  `json:"backendDOMNodeId"`
			} `json:"nodes"`
		}
		if json.Unmarshal(clean, &r) != nil {
			return nil, "", nil, nil
		}
		for _, n := range r.Nodes {
			if n.Backend == id {
				parent = n.ParentID
				break
			}
		}
		if parent == "" {
			return nil, "", nil, nil // no AX object: Chrome made one up for the reply
		}
	}
	return a, parent, secrets, nil
}

// axMembers tells which ignored nodes are in Chrome's AX tree, as
// getFullAXTree walks it. Those are the ones their AX parent lists as
// children (Accessibility.getChildAXNodes, one call per parent).
// Nothing in the reply itself (ignored reasons, the parent's childIds)
// says it.
func (m *Model) axMembers(ctx context.Context, p dom.Session, parents map[int64]string) (map[int64]bool, error) {
	in := map[int64]bool{}
	if len(parents) == 0 {
		return in, nil
	}
	if !m.axEnabled {
		// getChildAXNodes needs the domain on; it also keeps Chrome's AX
		// tree alive between reads, which makes later reads cheaper.
		if err := p.Call(ctx, "Accessibility.enable", nil, nil); err != nil {
			return nil, err
		}
		m.axEnabled = true
	}
	// An AX id is one of its frame's tree: a node of a same-process child
	// frame is asked about in that frame.
	type axParent struct{ frame, id string }
	byParent := map[axParent][]int64{}
	m.mu.Lock()
	for id, par := range parents {
		k := axParent{m.frameOf(m.byBack[id]), par}
		byParent[k] = append(byParent[k], id)
	}
	m.mu.Unlock()
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(8)
	for par := range byParent {
		g.Go(func() error {
			var r struct {
				Nodes []struct {
					Backend int64 `json:"backendDOMNodeId"`
				} `json:"nodes"`
			}
			params := map[string]any{"id": par.id}
			if par.frame != "" {
				params["frameId"] = par.frame
			}
			if err := p.Call(ctx, "Accessibility.getChildAXNodes", params, &r); err != nil {
				if dom.CodeOf(err) == dom.CDPError {
					return nil // the parent went away: its children with it
				}
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for _, n := range r.Nodes {
				in[n.Backend] = true
			}
			return nil
		})
	}
	err := g.Wait()
	for id := range in {
		if _, asked := parents[id]; !asked {
			delete(in, id)
		}
	}
	return in, err
}

// frameOf is the id of the same-process child frame whose document holds
// n, "" for the page's own document. m.mu is held.
func (m *Model) frameOf(n *cdpjson.Node) string {
	for x := n; x != nil; x = m.parent[x.NodeID] {
		if x.NodeType != dom.DocumentNode {
			continue
		}
		if host := m.parent[x.NodeID]; host != nil && host.FrameID != "" {
			return host.FrameID
		}
		return ""
	}
	return ""
}
