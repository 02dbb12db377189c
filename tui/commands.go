package tui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
)

// Messages that come back from commands. Every reply that changes what the
// UI shows carries the generation it was started in; Update drops replies
// whose generation is no longer current.
type (
	// snapshotMsg: a snapshot arrived, after an action (res != nil), a
	// refresh or a rebuild with other tier rules.
	snapshotMsg struct {
		gen     int
		snap    *dom.Snapshot
		err     error
		res     *dom.ActionResult
		desc    string
		rebuilt bool
	}
	eventsMsg struct {
		actor  dom.Actor
		events []dom.Event
		closed bool
	}
	targetsMsg struct {
		targets []dom.TargetInfo
		err     error
	}
	attachedMsg struct {
		gen    int
		actor  dom.Actor
		target dom.TargetInfo
		err    error
	}
	exportedMsg struct {
		path string
		err  error
	}
	hlTickMsg     struct{ seq int }
	hlDoneMsg     struct{ err error }
	dialogDoneMsg struct{ res dom.ActionResult }
	clockMsg      time.Time
	// panicMsg is a command that panicked; the UI shows it instead of dying.
	panicMsg struct{ err error }
)

// Bounds on browser work, so nothing blocks forever.
const (
	opTimeout        = 60 * time.Second
	highlightTimeout = 3 * time.Second
	highlightDelay   = 120 * time.Millisecond
)

// safe runs a command and turns a panic into a message, so a bug in a
// command never takes the terminal down with it.
func safe(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = panicMsg{fmt.Errorf("internal error in a background task: %v", r)}
			}
		}()
		return cmd()
	}
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		if v {
			out[k] = true
		}
	}
	return out
}

// waitEvents delivers the actor's next events, coalescing a burst into one
// message so a chatty page does not cause a render per event.
func waitEvents(a dom.Actor) tea.Cmd {
	if a == nil {
		return nil
	}
	ch := a.Events()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return eventsMsg{actor: a, closed: true}
		}
		evs := []dom.Event{ev}
	drain:
		for len(evs) < 64 {
			select {
			case ev, ok := <-ch:
				if !ok {
					return eventsMsg{actor: a, events: evs, closed: true}
				}
				evs = append(evs, ev)
			default:
				break drain
			}
		}
		return eventsMsg{actor: a, events: evs}
	}
}

func clock() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return clockMsg(t) })
}

// describe is how an action reads in the details pane.
func describe(a dom.Action) string {
	s := string(a.Kind)
	switch a.Kind {
	case "type":
		s += fmt.Sprintf(" %q", a.Text)
	case "key":
		s += " " + a.Key
	case "select":
		s += fmt.Sprintf(" %q", a.Value)
	case "navigate":
		s += " " + a.URL
	case "scroll":
		s += fmt.Sprintf(" %+.0f px", a.DY)
	}
	if a.ID != "" {
		s += " on " + a.ID
	}
	return s
}

func ctxTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	return context.WithTimeout(parent, d)
}
