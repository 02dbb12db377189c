package mcp

import (
	"time"

	"domscope/dom"
)

// Call is one tool call as the server's observer sees it (the UI's call
// log and recording). It is reported once when it starts and once when
// it ends. Every string in it is already clean: secrets typed through
// the tools are masked, page strings escaped.
type Call struct {
	Seq  int    // 1, 2, 3… per server
	Tool string // "dom_click"
	// Args is the call's arguments as JSON, secrets masked.
	Args string
	// Target is the node the call acts on ("node_12"), "" for none.
	Target string
	// Action is what the call does to the page, for a recording. It is nil
	// for reads: snapshot, screenshot, tabs, wait. Text typed into a
	// sensitive field is dom.Mask.
	Action  *dom.Action
	Started time.Time

	// Set when Done.
	Done    bool
	Result  *dom.ActionResult // the action's result (nil for reads)
	Text    string            // the text the agent received
	IsError bool
	Ms      float64
	Tokens  int // o200k tokens of Text
}
