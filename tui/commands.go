package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/urls"
)

// Messages that come back from commands. Every reply that changes what
// the UI shows carries the generation it was started in. Update drops
// replies whose generation is no longer current.
type (
	// snapshotMsg: a snapshot arrived. It follows an action (res != nil),
	// a refresh or a rebuild with other tier rules.
	snapshotMsg struct {
		gen     int
		snap    *dom.Snapshot
		err     error
		res     *dom.ActionResult
		desc    string
		rebuilt bool
		recErr  error // the recorder could not keep the action as a script step
		// agent: the footer's line for the agent's call this snapshot follows
		agent    string
		agentBad bool
		shown    *derived // the flat view and diff, made in the command
	}
	eventsMsg struct {
		actor  dom.Actor
		events []dom.Event
		closed bool
	}
	targetsMsg struct {
		targets []dom.TargetInfo
		err     error
		auto    bool // asked for by the UI after the tab was lost, not by T
	}
	attachedMsg struct {
		gen    int
		page   dom.Page
		actor  dom.Actor
		target dom.TargetInfo
		err    error
	}
	exportedMsg struct {
		path string
		err  error
		// fresh is the snapshot taken to export when the shown one could
		// not be written out any more (dom.ErrPageChanged). gen is the
		// generation it was asked in.
		fresh *dom.Snapshot
		gen   int
	}
	hlTickMsg struct{ seq int }
	hlDoneMsg struct{ err error }
	// dialogDoneMsg and tabLeftMsg carry the tab they were for. The UI may
	// be on another one when they come back.
	dialogDoneMsg struct {
		actor dom.Actor
		res   dom.ActionResult
	}
	tabLeftMsg struct {
		actor dom.Actor
		err   error
	}
	clockMsg time.Time
	// formattedMsg is the flat view in the other format, made in a command.
	formattedMsg struct {
		out flatOutput
		err error
	}
	// copyReadyMsg is text to copy, formatted in a command.
	copyReadyMsg struct {
		what, text string
		err        error
	}
	// reflattenedMsg is the flat view made again with other flatten
	// rules, in a command. seq tells it from an older toggle's.
	reflattenedMsg struct {
		snap *dom.Snapshot
		seq  int
		d    *derived
	}
	// phaseMsg is the phase the operation of generation gen reached.
	phaseMsg struct {
		gen   int
		phase string
		next  tea.Cmd // waits for the phase after
	}
	// panicMsg is a command that panicked. The UI shows it instead of dying.
	panicMsg struct{ err error }
)

// Bounds on browser work, so nothing blocks forever.
const (
	highlightTimeout = 3 * time.Second
	highlightDelay   = 120 * time.Millisecond
)

// opTimeout bounds one operation (a snapshot, an action). It is a
// variable because the full-program tests lift it. A loaded machine may
// take longer on a 50,000-element page. A test must not depend on the
// machine's speed.
var opTimeout = 60 * time.Second

// safe runs a command and turns a panic into a message. So a bug in a
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

// waitEvents delivers the actor's next events, coalescing a burst into
// one message. So a chatty page does not cause a render per event.
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

// describe is how an action reads in the details pane, the busy line and
// an export. secret says the action's node is a sensitive field. Then the
// text typed (or the option chosen, or a character key pressed) is
// masked. A final newline (alt+enter) still shows: it is a key, not the
// secret.
func describe(a dom.Action, secret bool) string {
	s := string(a.Kind)
	switch a.Kind {
	case "type":
		body, enter := strings.CutSuffix(a.Text, "\n")
		body = dom.MaskIf(secret, body)
		if enter {
			body += "\n"
		}
		s += fmt.Sprintf(" %q", body)
	case "key":
		k := a.Key
		if secret && utf8.RuneCountInString(k) == 1 {
			k = dom.Mask
		}
		s += " " + k
	case "select":
		s += fmt.Sprintf(" %q", dom.MaskIf(secret, a.Value))
	case "navigate":
		s += " " + urls.Safe(a.URL)
	case "scroll":
		s += fmt.Sprintf(" %+.0f px", a.DY)
	case dom.KindViewport:
		vp := dom.Viewport{}
		if a.Viewport != nil {
			vp = *a.Viewport
		}
		s += " " + vp.String()
	}
	if a.ID != "" {
		s += " on " + a.ID
	}
	return s
}

// conceal removes the secret an action carried from its result's error
// message, since that message is shown and exported. It is defence in
// depth: the engine already words such errors without it.
func conceal(r dom.ActionResult, a dom.Action, secret bool) dom.ActionResult {
	if !secret || r.Error == nil {
		return r
	}
	msg := r.Error.Message
	for _, v := range []string{strings.TrimSuffix(a.Text, "\n"), a.Value} {
		if v == "" {
			continue
		}
		q := strconv.Quote(v)
		msg = strings.ReplaceAll(msg, q[1:len(q)-1], dom.Mask)
		msg = strings.ReplaceAll(msg, v, dom.Mask)
	}
	if msg != r.Error.Message {
		e := *r.Error
		e.Message = msg
		e.Err = nil // the cause's text may repeat it
		r.Error = &e
	}
	return r
}

// opBound is how long one browser operation may take (Config.OpTimeout).
func (m *Model) opBound() time.Duration {
	if m.cfg.OpTimeout > 0 {
		return m.cfg.OpTimeout
	}
	return opTimeout
}

// gaveUp reports whether the operation's bound ended an action that
// failed, and says so in its result. The engine's "cancelled" was the UI
// giving up, not the user. A URL whose server never answers keeps a
// navigation waiting until then.
func gaveUp(ctx context.Context, res *dom.ActionResult, bound time.Duration) bool {
	if res.Error == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return false
	}
	e := *res.Error
	e.Code, e.Recoverable, e.Err = dom.Timeout, true, nil
	what := "the page to answer"
	if res.Action == dom.KindNavigate || res.Action == dom.KindReload {
		what = "the page to load: its server never answered, and the tab may still be loading it"
	}
	e.Message = fmt.Sprintf("gave up after %.0f s waiting for %s (r takes a snapshot; esc gives up sooner)", bound.Seconds(), what)
	res.Error = &e
	return true
}

func ctxTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	return context.WithTimeout(parent, d)
}

// phases relays a capture's progress to the UI. The engine calls report
// from its goroutines. wait (a command) delivers the latest phase as a
// message, so only Update changes the model. Older phases not yet read
// are replaced: the UI shows where the work is, not where it was.
func phases(ctx context.Context, gen int) (report func(string), wait tea.Cmd) {
	ch := make(chan string, 1)
	report = func(p string) {
		for {
			select {
			case ch <- p:
				return
			default:
			}
			select {
			case <-ch:
			default:
			}
		}
	}
	var w tea.Cmd
	w = func() tea.Msg {
		select {
		case p := <-ch:
			return phaseMsg{gen: gen, phase: p, next: w}
		case <-ctx.Done():
			return nil
		}
	}
	return report, w
}
