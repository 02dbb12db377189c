package model

import (
	"maps"
	"slices"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// An out-of-process frame's model (the service follows such frames on
// their own sessions, dom/live/framefollow.go) has its own scope: its
// node and backend ids are numbered apart from the page's. Its ids are
// negative in a watcher's maps, so they never meet the page's. The
// page's scope is 0: its ids are as Chrome gives them.

// scopeShift leaves room for any backend id below the scope.
const scopeShift = 40

// Scoped is backend id b of a model of scope as a watcher keeps it.
func Scoped(scope, b int64) int64 {
	if scope == 0 {
		return b
	}
	return -(scope<<scopeShift | b)
}

// Unscoped is the backend id Scoped made id from.
func Unscoped(id int64) int64 {
	if id >= 0 {
		return id
	}
	return -id & (1<<scopeShift - 1)
}

// NodeKey is how a watcher keys node n of m: by node id in the page,
// which the model keeps. By backend id in a frame: each read of a frame
// numbers its nodes anew, and a flash may outlive a read.
func (m *Model) NodeKey(n *cdpjson.Node) int64 {
	if m.scope == 0 {
		return n.NodeID
	}
	return Scoped(m.scope, n.BackendNodeID)
}

// Scope is the model's scope (0 for the page); set once, at making.
func (m *Model) Scope() int64 { return m.scope }

// FrameTarget is the frame's target id ("" for the page's model).
func (m *Model) FrameTarget() string { return m.frameTarget }

// NewFrameModel is a model of the frame ti read, on a copy of its tree.
// secrets are the page's, masked in what it tells a watcher.
func NewFrameModel(ti *cdpjson.Target, scope int64, secrets []string) *Model {
	root := cloneNode(ti.Root)
	own := cdpjson.EmptyTarget(ti.Raw)
	own.Root = root
	m := &Model{raw: &dom.RawCapture{TargetID: ti.Raw.TargetID}, ti: own, byNode: map[int64]*cdpjson.Node{}, parent: map[int64]*cdpjson.Node{}, byBack: map[int64]*cdpjson.Node{}, grown: make(chan struct{}),
		registered: map[int64]bool{}, scope: scope, frameTarget: ti.Raw.TargetID, secrets: slices.Clone(secrets), applied: time.Now()}
	m.resetSets()
	m.minID = root.NodeID
	m.index(root, nil)
	return m
}

// FrameReads are the out-of-process frames the last read held, and the
// secrets known to the model (values and URL credentials).
func (m *Model) FrameReads() ([]*cdpjson.Target, []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.frames), slices.Concat(m.secrets, m.urlSecrets)
}

// CutNodes are the nodes whose children Chrome has not sent.
func (m *Model) CutNodes() []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Collect(maps.Keys(m.cut))
}

// cloneNode copies n's tree: the page's model builds from the original.
func cloneNode(n *cdpjson.Node) *cdpjson.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Attributes = slices.Clone(n.Attributes)
	c.Children = cloneNodes(n.Children)
	c.ShadowRoots = cloneNodes(n.ShadowRoots)
	c.ContentDocument = cloneNode(n.ContentDocument)
	c.TemplateContent = cloneNode(n.TemplateContent)
	return &c
}

func cloneNodes(ns []*cdpjson.Node) []*cdpjson.Node {
	if ns == nil {
		return nil
	}
	out := make([]*cdpjson.Node, len(ns))
	for i, n := range ns {
		out[i] = cloneNode(n)
	}
	return out
}
