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

// advice is what to do after an error of a code: retry, when the same
// call can work again, and noRetry, when it cannot. An error's own
// Recoverable picks one. Neither may contradict it (TestAdviceAgrees).
type advice struct{ retry, noRetry string }

var next = map[dom.Code]advice{
	dom.NodeNotFound:      {retry: "call dom_snapshot and use an id from it"},
	dom.NodeStale:         {retry: "call dom_snapshot for the current ids"},
	dom.NotInteractable:   {retry: "the element has no box on screen: dom_scroll {id} to bring it into view, or act on a visible element"},
	dom.Occluded:          {retry: "close or dismiss what covers it (the message names it), or call again with force:true"},
	dom.DialogOpen:        {retry: "call dom_dialog with accept:true or false"},
	dom.Timeout:           {retry: "retry; or dom_wait, then dom_snapshot to see where the page is"},
	dom.ValidationError:   {retry: "fix the arguments as the message says"},
	dom.NotAttached:       {retry: "retry in a moment; if it persists, dom_tabs list and select a tab"},
	dom.TargetNotFound:    {noRetry: "dom_tabs list to see the open tabs"},
	dom.AttachFailed:      {noRetry: "dom_tabs list and select a tab"},
	dom.SnapshotFailed:    {noRetry: "dom_reload, then dom_snapshot; if the page still fails, dom_tabs list and select another"},
	dom.CDPError:          {noRetry: "call dom_snapshot to see the page, then act on what it shows"},
	dom.NavigationBlocked: {noRetry: "open web pages only (http or https); the server's flags set which origins"},
	dom.ExpectationFailed: {
		retry:   "read what the page showed instead (errors seen), fix the input or the step, and act again",
		noRetry: "read what the page showed instead (errors seen), then change the input or the step",
	},
}

// noRetryStep is the step for an error marked not retryable whose code
// has no step of that kind.
const noRetryStep = "call dom_snapshot to see the page, or dom_tabs list to pick a tab"

// The steps of errors that carry their own.
const (
	hintPaused    = "wait, then retry the call: a person is acting on the page"
	hintClosedTab = "dom_tabs list, then select a tab or open one with new"
	hintNoBrowser = "start the browser the server's --endpoint names, or add --launch to the server's arguments; then retry"
)

// stepFor is what to do next after e. hint, when given, wins.
func stepFor(e *dom.Error, hint string) string {
	if hint != "" {
		return hint
	}
	a := next[e.Code]
	if e.Recoverable {
		if a.retry != "" {
			return a.retry
		}
		return a.noRetry
	}
	if a.noRetry != "" {
		return a.noRetry
	}
	return noRetryStep
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
	if step := stepFor(e, hint); step != "" {
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
