package dom

import (
	"context"
	"encoding/json"
	"time"
)

// Session sends CDP commands to one target: the page, or an out-of-process
// frame. params is any JSON-marshalable value (nil for none). result is a
// pointer to decode into, or nil; a *json.RawMessage keeps the raw bytes.
// cdpconn implements it; dom never imports chromedp.
type Session interface {
	Call(ctx context.Context, method string, params, result any) error
	// Subscribe buffers the events of one method ("DOM.documentUpdated")
	// from the moment it returns. cancel stops it and closes the channel.
	Subscribe(method string) (events <-chan json.RawMessage, cancel func())
}

// LoadGrace is how long a parsed document's load event is waited for.
// An image or a script that never arrives must not hold a navigation:
// its DOM is there. Playwright MCP waits 5 to 10 s for the load event.
const LoadGrace = 2 * time.Second

// Page is an attached page target. It has its own session plus the
// sessions of the out-of-process iframes inside it.
type Page interface {
	Session
	TargetID() string
	// Frames lists the out-of-process iframe targets now inside the page,
	// each with a session of its own. It attaches to new ones.
	Frames(ctx context.Context) ([]FrameTarget, error)
	// Done is closed when the page's connection is lost. The tab closed,
	// the browser went or Inspector.detached came.
	Done() <-chan struct{}
	// Detach ends the session. It closes the tab only if the program
	// opened it.
	Detach() error
}

// FrameTarget is an out-of-process iframe. Its target id equals the frame
// id of the <iframe> element's content frame in the parent document.
type FrameTarget struct {
	TargetID string
	URL      string
	Session  Session
	// ParentID is the target that holds the <iframe>. That is the page, or
	// another out-of-process frame for nested ones.
	ParentID string
}

// TargetInfo describes a page target of the browser, for choosing a tab.
type TargetInfo struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Attached bool   `json:"attached"`
}

// Browser is a connection to a whole browser. It lists its tabs and
// attaches to one.
type Browser interface {
	Targets(ctx context.Context) ([]TargetInfo, error)
	// Attach attaches to the page target with this id.
	Attach(ctx context.Context, targetID string) (Page, error)
	// NewPage opens a new tab at url and attaches to it. The program owns
	// it.
	NewPage(ctx context.Context, url string) (Page, error)
	Close() error
}

// EventMessage is one CDP event with its method. At is when it came off
// the wire: a loaded process may apply it much later, and how long a
// flash lived is measured between arrivals.
type EventMessage struct {
	Method string
	Params json.RawMessage
	At     time.Time
}

// OrderedEvents is a Page that delivers the events of several methods on
// one channel, in the order the browser sent them. Each one is queued
// before the reply to any later command returns. The live page model
// needs that order: a node is inserted, then changed, then removed.
// Subscribe's one channel per method loses it. Without it the service
// takes a full capture on every read.
type OrderedEvents interface {
	SubscribeOrdered(methods ...string) (events <-chan EventMessage, cancel func())
}

// MarkEvent is the method of the marks EventMarker puts in ordered
// streams. Only a stream that asks for it gets them.
const MarkEvent = "domscope.mark"

// EventMarker is an OrderedEvents whose streams can be marked without a
// round trip to the browser. MarkOrdered puts a mark behind every event
// the browser sent before the last reply read, and returns its number
// (the mark's Params). A reader that reaches the mark has seen them all.
type EventMarker interface {
	MarkOrdered() int64
}
