package mcp

import (
	"fmt"
	"strings"

	"domscope/dom"
)

// A tool error tells the agent three things. What went wrong (the code
// and message). Whether the same call can work if tried again. What to do
// next. It is a tool result with IsError set, not a protocol error. The
// agent reads it and carries on.

// next is what to do after an error of each code.
var next = map[dom.Code]string{
	dom.NodeNotFound:      "call dom_snapshot and use an id from it",
	dom.NodeStale:         "call dom_snapshot for the current ids",
	dom.NotInteractable:   "the element has no box on screen: dom_scroll {id} to bring it into view, or act on a visible element",
	dom.Occluded:          "close or dismiss what covers it (the message names it), or call again with force:true",
	dom.DialogOpen:        "call dom_dialog with accept:true or false",
	dom.Timeout:           "retry; or dom_wait, then dom_snapshot to see where the page is",
	dom.ValidationError:   "fix the arguments as the message says",
	dom.NotAttached:       "retry in a moment; if it persists, dom_tabs list and select a tab",
	dom.TargetNotFound:    "dom_tabs list to see the open tabs",
	dom.AttachFailed:      "dom_tabs list and select a tab",
	dom.SnapshotFailed:    "retry; if it persists, dom_reload",
	dom.CDPError:          "retry once; if it persists, dom_snapshot to see the page",
	dom.ExpectationFailed: "read what the page showed instead (errors seen), fix the input or the step, and act again",
}

// errorText is the text of a tool error: "CODE: message", whether to
// retry, and what to do next. hint, when given, comes before the usual
// step.
func errorText(e *dom.Error, hint string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", e.Code, e.Message)
	retry := "no"
	if e.Recoverable {
		retry = "yes"
	}
	fmt.Fprintf(&b, "retryable: %s\n", retry)
	step := next[e.Code]
	if hint != "" {
		step = hint
	}
	if step != "" {
		fmt.Fprintf(&b, "next: %s\n", step)
	}
	return b.String()
}

// nodeSig is what an agent saw of a node. It is enough to find its like
// again.
type nodeSig struct {
	role, name, tag string
}

func sigOf(n *dom.VirtualNode) nodeSig { return nodeSig{n.Role, n.Name, n.Tag} }

func (g nodeSig) String() string {
	if g.name == "" {
		return g.role
	}
	return g.role + " " + quote(dom.Clip(g.name, 80))
}

// staleError turns "not in the snapshot" for an id the agent was shown
// into NODE_STALE. It names the node it was and the nearest match the
// current snapshot has.
func staleError(e *dom.Error, id string, was nodeSig, snap *dom.Snapshot) (*dom.Error, string) {
	se := dom.Errorf(dom.NodeStale, nil, "%s (%s) is gone from the page", id, was)
	m := nearest(snap, was)
	if m == nil {
		return se, ""
	}
	line := "[" + strings.TrimPrefix(m.ID, "node_") + "] " + sigOf(m).String()
	se.Message += "; the nearest match now is " + line
	return se, "act on " + line + " if it is the same control, or call dom_snapshot for the current ids"
}

// nearest finds the shown node of snap most like was. It tries, in order:
// the same role and name; the same name; the same role with a name that
// holds the old one or is held by it. The first in document order wins.
func nearest(snap *dom.Snapshot, was nodeSig) *dom.VirtualNode {
	if snap == nil || (was.name == "" && was.role == "") {
		return nil
	}
	var best *dom.VirtualNode
	bestScore := 0
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if n.NodeType != dom.ElementNode || n.Hidden != "" {
			return
		}
		score := 0
		switch {
		case was.name != "" && n.Name == was.name && n.Role == was.role:
			score = 3
		case was.name != "" && n.Name == was.name:
			score = 2
		case was.name != "" && n.Role == was.role && n.Name != "" &&
			(strings.Contains(n.Name, was.name) || strings.Contains(was.name, n.Name)):
			score = 1
		}
		if score > bestScore {
			best, bestScore = n, score
		}
	})
	return best
}
