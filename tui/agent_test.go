package tui

import (
	"context"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/mcp"
)

// The server's observer runs on the call's goroutine. It must never wait
// for the UI, however far behind the UI is.
func TestAgentObserveNeverBlocks(t *testing.T) {
	a := NewAgent()
	done := make(chan struct{})
	go func() {
		for i := 1; i <= 1000; i++ {
			a.Observe(mcp.Call{Seq: i, Tool: "dom_click"})
			a.Observe(mcp.Call{Seq: i, Tool: "dom_click", Done: true})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a hang guard, not a speed test
		t.Fatal("Observe blocked while nothing drained the queue")
	}
	msg := a.wait()().(agentMsg)
	if len(msg.calls) != 2000 {
		t.Errorf("drained %d calls, want 2000 in one message", len(msg.calls))
	}
}

func TestCallLine(t *testing.T) {
	for _, c := range []struct {
		call mcp.Call
		want string
	}{
		{mcp.Call{Tool: "dom_click", Target: "12"}, "dom_click [12] …"},
		{mcp.Call{Tool: "dom_click", Target: "node_12", Done: true, Ms: 180.4}, "dom_click [12] → ok 180 ms"},
		{mcp.Call{Tool: "dom_type", Target: "[3]", Done: true, IsError: true, Text: "NODE_STALE: node_3 is gone", Ms: 2}, "dom_type [3] → NODE_STALE 2 ms"},
		{mcp.Call{Tool: "dom_snapshot", Done: true, IsError: true, Text: "odd", Ms: 1}, "dom_snapshot → error 1 ms"},
	} {
		if got := callLine(c.call); got != c.want {
			t.Errorf("callLine(%+v) = %q, want %q", c.call, got, c.want)
		}
	}
}

// fakePage is a tab picked with T, by its id only.
type fakePage struct {
	dom.Page
	id string
}

func (p fakePage) TargetID() string { return p.id }

// A tab the person picks with T becomes the agent's tab too. It uses the
// service the UI shows.
func TestAgentFollowsThePickedTab(t *testing.T) {
	a := NewAgent()
	var gotActor dom.Actor
	var gotPage dom.Page
	a.SetTab = func(actor dom.Actor, p dom.Page) { gotActor, gotPage = actor, p }
	m := newModel(context.Background(), Config{Actor: newTestActor(formPage("one")), Agent: a, NoColor: true})
	next := newTestActor(formPage("two"))
	m.Update(attachedMsg{gen: m.doc.gen, page: fakePage{id: "TAB2"}, actor: next, target: dom.TargetInfo{ID: "TAB2", Title: "two"}})
	if gotActor != dom.Actor(next) || gotPage == nil || gotPage.TargetID() != "TAB2" {
		t.Errorf("the agent was not moved to the picked tab: actor %v, page %v", gotActor, gotPage)
	}
}
