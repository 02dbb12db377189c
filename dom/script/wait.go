package script

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/urls"
)

// Until is what a wait waits for. Every condition given must hold at
// once: the view holds Text (or, with Gone, no longer does), the URL
// holds URL (both case aside), the view has not changed for Quiet. With
// none, the wait sleeps for Sleep and reads the page once. dom_wait, the
// agent CLI's wait and the run wait step all wait through WaitUntil.
type Until struct {
	Text  string
	Gone  bool
	URL   string
	Quiet time.Duration
	Sleep time.Duration
	// Timeout bounds a wait for a condition (default 5 s, at most 60 s).
	Timeout time.Duration
}

// Waited is what a wait saw: the view before and after, and the change
// between them (Navigated and NewURL when the URL changed).
type Waited struct {
	Before, After *dom.Snapshot
	Changes       dom.Changes
	Duration      time.Duration
}

// cond reports whether u waits for something, not for a time.
func (u Until) cond() bool { return u.Text != "" || u.URL != "" || u.Quiet > 0 }

// check says what is wrong with u ("" when nothing).
func (u Until) check() string {
	switch {
	case !u.cond() && (u.Sleep <= 0 || u.Sleep > maxWait):
		return fmt.Sprintf("give text, url or quiet to wait for, or ms between 1 and %d", maxWait.Milliseconds())
	case u.Quiet < 0 || u.Quiet > maxWait:
		return fmt.Sprintf("quiet is between 1 and %d ms", maxWait.Milliseconds())
	case u.Timeout < 0 || u.Timeout > maxWait:
		return fmt.Sprintf("timeout is between 0 and %d ms", maxWait.Milliseconds())
	}
	return ""
}

// WaitUntil waits as u says and answers with what changed meanwhile. A
// condition that does not hold in time is a TIMEOUT that says which. The
// change it answers with is said: the actor's late effects (Later) start
// again from the page it saw.
func WaitUntil(ctx context.Context, a dom.Actor, u Until) (Waited, error) {
	var w Waited
	if msg := u.check(); msg != "" {
		return w, dom.Errorf(dom.ValidationError, nil, "%s", msg)
	}
	start := time.Now()
	before := a.Current()
	if before == nil {
		var err error
		if before, err = a.Snapshot(ctx, false); err != nil {
			return w, err
		}
	}
	if !u.cond() {
		select {
		case <-time.After(u.Sleep):
		case <-ctx.Done():
			return w, dom.Errorf(dom.Timeout, ctx.Err(), "the wait was cancelled")
		}
	}
	limit := 5 * time.Second
	if u.Timeout > 0 {
		limit = u.Timeout
	}
	// Text and URL match as a search box does: case aside. A URL's
	// scheme and host have no case anyway.
	want, wantURL := strings.ToLower(u.Text), strings.ToLower(u.URL)
	var snap *dom.Snapshot
	lastText, lastChange := "", time.Now()
	for {
		var err error
		if snap, err = a.Snapshot(ctx, true); err != nil {
			return w, err
		}
		if !u.cond() {
			break
		}
		text := flatten.FlatText(snap, dom.DefaultOptions())
		if text != lastText {
			lastText, lastChange = text, time.Now()
		}
		var why []string
		if u.Text != "" && strings.Contains(strings.ToLower(text), want) == u.Gone {
			what := "appear"
			if u.Gone {
				what = "disappear"
			}
			why = append(why, fmt.Sprintf("%s did not %s", quoteJSON(u.Text), what))
		}
		if u.URL != "" && !strings.Contains(strings.ToLower(snap.URL), wantURL) {
			why = append(why, fmt.Sprintf("the URL %s does not hold %s", strings.Trim(quoteJSON(urls.Safe(snap.URL)), `"`), quoteJSON(u.URL)))
		}
		if u.Quiet > 0 && time.Since(lastChange) < u.Quiet {
			why = append(why, fmt.Sprintf("the view did not stay still for %d ms", u.Quiet.Milliseconds()))
		}
		if len(why) == 0 {
			break
		}
		if time.Since(start) > limit {
			return w, dom.Errorf(dom.Timeout, nil, "%s within %s", strings.Join(why, "; "), limit)
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return w, dom.Errorf(dom.Timeout, ctx.Err(), "the wait was cancelled")
		}
	}
	if l, ok := a.(laterTeller); ok {
		l.Later(snap) // what the wait shows is said: not again as a late effect
	}
	w.Before, w.After, w.Duration = before, snap, time.Since(start)
	if before.URL != snap.URL {
		w.Changes.Navigated, w.Changes.NewURL = true, snap.URL
	} else {
		flatten.ListChanges(&w.Changes, flatten.Diff(before, snap), flatten.FlatText(before, dom.DefaultOptions()), flatten.FlatText(snap, dom.DefaultOptions()))
	}
	return w, nil
}

// laterTeller is an actor that says what changed after the last action
// answered (live.Service).
type laterTeller interface {
	Later(snap *dom.Snapshot) *dom.Later
}

// quoteJSON is s as an escaped JSON string, quotes included.
func quoteJSON(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(flatten.EscapeJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
}
