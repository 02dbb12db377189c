package tui

import (
	"context"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/mcp"
	"domscope/dom/script"
	"domscope/views"
)

// Agent links an MCP server (domscope --mcp) to the UI. The server's
// observer feeds it calls, and the UI shows and records them. The pause
// key closes its gate. Make it with NewAgent. Give Observe to
// mcp.Config.Observer and Gate to mcp.Config.Gate.
type Agent struct {
	Gate *mcp.Gate
	// SetTab, when set, points the server at the tab the person picked
	// (T). It is mcp.Server.SetTab with the actor's service.
	SetTab func(dom.Actor, dom.Page)

	mu     sync.Mutex
	queue  []mcp.Call
	wake   chan struct{} // one pending signal: the queue has calls
	actor  dom.Actor     // the tab the agent acts on, for "before"
	rec    *script.Recorder
	before map[int]*dom.Snapshot // by call: the page as the call began
}

// NewAgent makes an Agent with an open gate.
func NewAgent() *Agent {
	return &Agent{Gate: &mcp.Gate{}, wake: make(chan struct{}, 1), before: map[int]*dom.Snapshot{}}
}

// attach is called by the model. It gives the recorder the session
// shares, and the tab it shows.
func (a *Agent) attach(actor dom.Actor, rec *script.Recorder) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.actor, a.rec = actor, rec
}

// switchTab follows the person to another tab.
func (a *Agent) switchTab(actor dom.Actor, p dom.Page) {
	a.mu.Lock()
	a.actor = actor
	a.mu.Unlock()
	if a.SetTab != nil && p != nil {
		a.SetTab(actor, p)
	}
}

// Observe is the server's observer. It runs on the call's goroutine and
// never waits for the UI: the call is queued. An action is recorded here
// as it ends. So the script keeps the order the page saw.
func (a *Agent) Observe(c mcp.Call) {
	a.mu.Lock()
	if !c.Done {
		if a.actor != nil {
			a.before[c.Seq] = a.actor.Current()
		}
	} else {
		before := a.before[c.Seq]
		delete(a.before, c.Seq)
		if c.Action != nil && c.Result != nil && a.rec != nil {
			act := *c.Action
			_, _, _ = a.rec.Record(before, act, *c.Result, agentDesc(c))
		}
	}
	a.queue = append(a.queue, c)
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default: // a signal is already pending
	}
}

// agentMsg carries the calls queued since the last one.
type agentMsg struct{ calls []mcp.Call }

// waitAgent waits for queued calls and hands them to Update together.
func (a *Agent) wait() tea.Cmd {
	return func() tea.Msg {
		<-a.wake
		a.mu.Lock()
		calls := a.queue
		a.queue = nil
		a.mu.Unlock()
		return agentMsg{calls}
	}
}

// callLogSize is how many calls the call log keeps.
const callLogSize = 500

// agentState is what the model keeps of the agent's calls.
type agentState struct {
	calls []mcp.Call // ended calls, oldest first
	count int        // every call that ended
	// refresh: an action ended while other work held the page. Its
	// snapshot is taken when that work is done.
	refresh *mcp.Call
}

// gotAgent shows calls. A starting call selects its target. An ended
// action brings in the snapshot it made, with its change marks.
func (m *Model) gotAgent(msg agentMsg) tea.Cmd {
	var cmds []tea.Cmd
	for i := range msg.calls {
		c := msg.calls[i]
		if !c.Done {
			if c.Target != "" && m.doc.snap != nil && m.panes.tree.Reveal(dom.NormalizeID(c.Target)) {
				m.syncFromTree()
			}
			m.setFlash("agent: "+callLine(c), false)
			continue
		}
		m.agent.count++
		if len(m.agent.calls) >= callLogSize {
			m.agent.calls = append(m.agent.calls[:0], m.agent.calls[1:]...)
		}
		m.agent.calls = append(m.agent.calls, c)
		m.setFlash("agent: "+callLine(c), c.IsError)
		if c.Result != nil {
			cc := c
			m.agent.refresh = &cc
		}
	}
	cmds = append(cmds, m.agentRefresh(), m.cfg.Agent.wait())
	return tea.Batch(cmds...)
}

// agentRefresh takes the snapshot an agent's action made; the service
// already has it. When other work holds the page, it waits for later.
func (m *Model) agentRefresh() tea.Cmd {
	c := m.agent.refresh
	if c == nil || m.op.busy != nil || !m.live() {
		return nil
	}
	m.agent.refresh = nil
	actor, line, bad := m.conn.actor, "agent: "+callLine(*c), c.IsError
	res, desc := *c.Result, agentDesc(*c)
	m.doc.marks = nil
	return m.startOp(views.Clean("agent: "+c.Tool), func(ctx context.Context, gen int) tea.Msg {
		snap, err := actor.Snapshot(ctx, false)
		return snapshotMsg{gen: gen, snap: snap, err: err, res: &res, desc: desc, agent: line, agentBad: bad}
	})
}

// agentDesc is an agent's action as the details pane and the session log
// say it: "agent: type \"••••\"". The server masked its secrets.
func agentDesc(c mcp.Call) string {
	if c.Action == nil {
		return "agent: " + c.Tool
	}
	a := *c.Action
	return "agent: " + describe(a, a.Text == dom.Mask || a.Value == dom.Mask)
}

// callLine is one call as the footer and the call log say it:
// "dom_click [12] → ok 180 ms".
func callLine(c mcp.Call) string {
	s := c.Tool
	if c.Target != "" {
		s += " [" + trimNode(dom.NormalizeID(c.Target)) + "]"
	}
	if !c.Done {
		return s + " …"
	}
	out := "ok"
	if c.IsError {
		out = errorCode(c.Text)
	}
	return fmt.Sprintf("%s → %s %.0f ms", s, out, c.Ms)
}

// trimNode writes node_12 as 12.
func trimNode(id string) string {
	if len(id) > 5 && id[:5] == "node_" {
		return id[5:]
	}
	return id
}

// errorCode is the code an error answer starts with ("NODE_STALE").
func errorCode(text string) string {
	for i, r := range text {
		if !(r == '_' || (r >= 'A' && r <= 'Z')) {
			if i == 0 {
				return "error"
			}
			return text[:i]
		}
	}
	if text == "" {
		return "error"
	}
	return text
}

// agentLabel is the header's word on the agent: "" without --mcp.
func (m *Model) agentLabel() string {
	switch {
	case m.cfg.Agent == nil:
		return ""
	case m.cfg.Agent.Gate.Paused():
		return "agent paused (p)"
	}
	return fmt.Sprintf("agent: %d calls", m.agent.count)
}

// toggleAgent pauses the agent's calls, or lets them go on.
func (m *Model) toggleAgent() {
	g := m.cfg.Agent.Gate
	if g.Paused() {
		g.Resume()
		m.setFlash("agent resumed: its calls go on", false)
		return
	}
	g.Pause()
	m.setFlash("agent paused: its calls wait until p; act by hand meanwhile", false)
}
