package live

import (
	"context"
	"fmt"
	"strings"

	"domscope/dom"
)

// target is a node resolved for an action. It holds the session that owns
// its document, and how to reach its frame's viewport from the top page.
type target struct {
	node *dom.VirtualNode
	snap *dom.Snapshot
	sess dom.Session // page session, or the out-of-process frame's session
	// hosts are the <iframe> elements of out-of-process frames between
	// the page and the node, outermost first, each with its own session.
	hosts []frameHost
}

type frameHost struct {
	node *dom.VirtualNode
	sess dom.Session // session that owns the <iframe> element
}

// snapshotForAction returns a snapshot to resolve IDs in: the current
// one, or a fresh one. A fresh one is taken when the cached snapshot was
// invalidated or is too old. IDs survive a rebuild, so an agent's
// reference stays valid if the node does. With no snapshot ever taken it
// fails: never act on data nobody has seen.
func (s *Service) snapshotForAction(ctx context.Context) (*dom.Snapshot, error) {
	s.mu.Lock()
	cur, last := s.current, s.last
	s.mu.Unlock()
	if cur != nil && s.fresh(cur) {
		return cur, nil
	}
	if last == nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "no snapshot yet: take a snapshot first, then act on an id from it")
	}
	return s.capture(ctx)
}

func (s *Service) fresh(snap *dom.Snapshot) bool {
	return snap != nil && !snap.Taken.IsZero() && s.cfg.Now().Sub(snap.Taken) <= s.cfg.MaxAge
}

// resolve finds id in the snapshot and the session to act on it with.
func (s *Service) resolve(ctx context.Context, page dom.Page, snap *dom.Snapshot, id string) (*target, error) {
	if strings.TrimSpace(id) == "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "this action needs a node id (like node_12)")
	}
	n := snap.Node(id)
	if n == nil {
		s.mu.Lock()
		last := s.last
		s.mu.Unlock()
		if last != nil && last != snap && last.Node(id) != nil {
			return nil, dom.Errorf(dom.NodeStale, nil, "%s was in an earlier snapshot but is gone from the page now: take a new snapshot", dom.NormalizeID(id))
		}
		return nil, dom.Errorf(dom.NodeNotFound, nil, "%s is not in the current snapshot (#%d, %d nodes): use an id from the latest snapshot", dom.NormalizeID(id), snap.Seq, len(snap.ByID))
	}
	if n.BackendID == 0 {
		return nil, dom.Errorf(dom.NotInteractable, nil, "%s (%s) is not a DOM node the browser can act on", n.ID, describeNode(n))
	}
	t := &target{node: n, snap: snap, sess: page}
	if !s.ownedByPage(page, n) {
		var chain []*dom.VirtualNode // hosts, innermost first
		for p := n; p != nil; p = p.Parent {
			if p.Parent != nil && p.Parent.TargetID != p.TargetID && isFrameElement(p.Parent) {
				chain = append(chain, p.Parent)
			}
		}
		frames, err := page.Frames(ctx)
		if err != nil {
			return nil, s.mapErr(ctx, ctx, ctx, "Target.getTargets", err)
		}
		byTarget := map[string]dom.Session{}
		for _, f := range frames {
			byTarget[f.TargetID] = f.Session
		}
		sessFor := func(targetID string) (dom.Session, error) {
			if targetID == "" || targetID == page.TargetID() {
				return page, nil
			}
			if ss, ok := byTarget[targetID]; ok {
				return ss, nil
			}
			return nil, dom.Errorf(dom.NodeStale, nil, "the cross-origin frame (target %s) that held %s is gone: take a new snapshot", targetID, n.ID)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			hs, err := sessFor(chain[i].TargetID)
			if err != nil {
				return nil, err
			}
			t.hosts = append(t.hosts, frameHost{node: chain[i], sess: hs})
		}
		ss, err := sessFor(n.TargetID)
		if err != nil {
			return nil, err
		}
		t.sess = ss
		for _, h := range t.hosts {
			s.watchFrame(ctx, page, h.node.TargetID, h.sess)
		}
		s.watchFrame(ctx, page, n.TargetID, ss)
	}
	return t, nil
}

func (s *Service) ownedByPage(page dom.Page, n *dom.VirtualNode) bool {
	return n.TargetID == "" || n.TargetID == page.TargetID()
}

func isFrameElement(n *dom.VirtualNode) bool {
	return n.NodeType == dom.ElementNode && (n.Tag == "iframe" || n.Tag == "frame")
}

// describeNode names a node for messages: tag#id.class "name".
func describeNode(n *dom.VirtualNode) string {
	if n == nil {
		return "?"
	}
	var b strings.Builder
	b.WriteString(n.Tag)
	if id := n.Attr("id"); id != "" {
		b.WriteString("#" + id)
	}
	for i, c := range strings.Fields(n.Attr("class")) {
		if i == 3 {
			break
		}
		b.WriteString("." + c)
	}
	if n.Name != "" {
		fmt.Fprintf(&b, " %q", dom.Clip(n.Name, 60))
	}
	return b.String()
}

// findBackend finds the node of a target with a backend id in a snapshot.
func findBackend(snap *dom.Snapshot, targetID string, backend int64, pageTarget string) *dom.VirtualNode {
	if snap == nil {
		return nil
	}
	norm := func(t string) string {
		if t == "" {
			return pageTarget
		}
		return t
	}
	want := norm(targetID)
	for _, n := range snap.ByID {
		if n.BackendID == backend && norm(n.TargetID) == want {
			return n
		}
	}
	return nil
}

// contains reports whether n is anc or lies inside it, crossing shadow
// roots and same-process frame documents (the snapshot tree includes them).
func contains(anc, n *dom.VirtualNode) bool {
	for p := n; p != nil; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
}
