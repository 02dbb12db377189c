package live

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
)

// checkExpect checks the action's expected outcome (seed 003 §3.6.3). It
// reads the page again until the outcome holds or its timeout, counted
// from start, passes. The result then says what the page did instead.
func (s *Service) checkExpect(ctx context.Context, a dom.Action, res *dom.ActionResult, start time.Time, prev *dom.Snapshot, restless map[int64]bool) error {
	e := a.Expect
	if e == nil {
		return nil
	}
	timeout := dom.DefaultExpectTimeout
	if e.TimeoutMs > 0 {
		timeout = time.Duration(e.TimeoutMs) * time.Millisecond
	}
	deadline := start.Add(timeout)
	for {
		s.mu.Lock()
		snap := s.happened.last
		s.mu.Unlock()
		var lines []flatten.Line
		if snap != nil {
			lines = s.linesOf(snap)
		}
		why := unmet(*e, res, snap, lines, a.ID)
		if why == "" {
			res.Expected = "held: " + describeExpect(*e)
			return nil
		}
		if !time.Now().Before(deadline) || res.Dialog != nil || snap == nil || s.cfg.NoResnapshot {
			msg := fmt.Sprintf("%s within %s", why, secs(timeout))
			if errs := errorsSeen(res, snap); len(errs) > 0 {
				msg += "; the page showed " + strings.Join(errs, "; ")
			} else {
				msg += "; the action's effect: " + string(res.Effect)
			}
			return dom.Errorf(dom.ExpectationFailed, nil, "%s", msg)
		}
		select {
		case <-time.After(min(expectPoll, time.Until(deadline))):
		case <-ctx.Done():
			return dom.Errorf(dom.ExpectationFailed, ctx.Err(), "%s: no more time to wait", why)
		}
		next, err := s.capture(ctx)
		if err != nil {
			continue
		}
		s.fillDiff(res, prev, next, restless)
		// The record runs from the action on: a toast one read showed and
		// the next did not find came and went within it, a flash.
		res.Announced = nil
		s.judge(res, s.wit.take(false, time.Time{}, false), prev, next, restless)
		s.answered(a.Kind, next)
		res.Snapshot = dom.StatOf(next)
	}
}

// expectPoll is how often the page is read again for an expectation.
const expectPoll = 100 * time.Millisecond

func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// unmet is why e does not hold ("" when it does).
func unmet(e dom.Expect, res *dom.ActionResult, snap *dom.Snapshot, lines []flatten.Line, target string) string {
	var why []string
	shows := func(text string) bool {
		for _, l := range lines {
			if strings.Contains(l.Text, text) {
				return true
			}
		}
		return false
	}
	if e.Appears != "" && !shows(e.Appears) && !saidGoneBy(res, e.Appears) {
		why = append(why, strconv.Quote(e.Appears)+" did not appear")
	}
	if e.Gone != "" && shows(e.Gone) {
		why = append(why, strconv.Quote(e.Gone)+" is still shown")
	}
	if e.URL != "" && (snap == nil || !strings.Contains(snap.URL, e.URL)) {
		u := ""
		if snap != nil {
			u = snap.URL
		}
		why = append(why, fmt.Sprintf("the URL %s does not hold %q", u, e.URL))
	}
	if e.Navigates && !res.Changes.Navigated {
		why = append(why, "the page did not navigate")
	}
	switch e.Change {
	case "":
	case "none":
		if res.Effect != dom.EffectNone && res.Effect != dom.EffectFocusOnly {
			why = append(why, "the page changed ("+string(res.Effect)+")")
		}
	case "any":
		if res.Effect == dom.EffectNone || res.Effect == dom.EffectFocusOnly {
			why = append(why, "nothing visible changed")
		}
	default:
		why = append(why, fmt.Sprintf("change %q is none or any", e.Change))
	}
	var n *dom.VirtualNode
	if snap != nil {
		n = snap.Node(target)
	}
	if e.Value != "" {
		switch {
		case n == nil:
			why = append(why, "there is no target to read a value of")
		case n.Sensitive():
			why = append(why, "a sensitive field's value is never read")
		case valueOf(n) != e.Value:
			why = append(why, fmt.Sprintf("[%s] holds %q, not %q", strings.TrimPrefix(n.ID, "node_"), valueOf(n), e.Value))
		}
	}
	if e.State != "" {
		state, want := strings.TrimSpace(e.State), "true"
		if rest, ok := strings.CutPrefix(state, "not "); ok {
			state, want = strings.TrimSpace(rest), "false"
		}
		switch {
		case n == nil:
			why = append(why, "there is no target to read a state of")
		case (n.States[state] == "true") != (want == "true"):
			why = append(why, fmt.Sprintf("[%s] is not %s", strings.TrimPrefix(n.ID, "node_"), e.State))
		}
	}
	if len(e.Any) > 0 {
		var alts []string
		held := false
		for _, alt := range e.Any {
			w := unmet(alt, res, snap, lines, target)
			if w == "" {
				held = true
				break
			}
			alts = append(alts, w)
		}
		if !held {
			why = append(why, "none held: "+strings.Join(alts, ", or "))
		}
	}
	return strings.Join(why, "; ")
}

// saidGoneBy reports whether text flashed or was announced: it appeared,
// if only for a moment.
func saidGoneBy(res *dom.ActionResult, text string) bool {
	for _, f := range res.Flashed {
		if strings.Contains(f.Text, text) {
			return true
		}
	}
	for _, a := range res.Announced {
		if strings.Contains(a.Text, text) {
			return true
		}
	}
	return false
}

// valueOf is a field's value as the view has it.
func valueOf(n *dom.VirtualNode) string {
	if v, ok := n.States["value"]; ok {
		return v
	}
	return n.Attrs["value"]
}

// describeExpect is e in a few words, for an answer.
func describeExpect(e dom.Expect) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" "+strconv.Quote(v))
		}
	}
	add("appears", e.Appears)
	add("gone", e.Gone)
	add("url", e.URL)
	if e.Navigates {
		parts = append(parts, "navigates")
	}
	add("change", e.Change)
	add("value", e.Value)
	add("state", e.State)
	if len(e.Any) > 0 {
		var alts []string
		for _, a := range e.Any {
			alts = append(alts, describeExpect(a))
		}
		parts = append(parts, "any of ("+strings.Join(alts, " | ")+")")
	}
	return strings.Join(parts, ", ")
}
