package live

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"domscope/dom"
)

// dialogEvents are a session's dialog events. They are followed on one
// channel, in the order the browser sent them, where the session can.
// Some pages open the next alert as soon as the last closes. On two
// channels that alert could be seen before that close, and then the
// close would wipe it out.
var dialogEvents = []string{"Page.javascriptDialogOpening", "Page.javascriptDialogClosed"}

// pageEvents are the page session's ordered events: its dialogs, and how
// far a navigation got. A document is parsed after it is committed, and
// a fragment's history entry is reached after its load started. Handled
// out of order, either would leave an action waiting for a load.
var pageEvents = append([]string{
	"Page.frameNavigated", "Page.frameStartedLoading", "Page.frameStoppedLoading",
	"Page.loadEventFired", "Page.domContentEventFired", "Page.navigatedWithinDocument",
	"Network.requestWillBeSent",
}, dialogEvents...)

// dialogClosedWait bounds the wait for the browser to report a dialog
// closed after it accepted Page.handleJavaScriptDialog.
const dialogClosedWait = 2 * time.Second

// forwardOrdered delivers sess's events of the given methods to on, in
// order, until pctx ends. Without ordered events it falls back to one
// channel a method.
func (s *Service) forwardOrdered(pctx context.Context, sess dom.Session, events []string, on func(method string, raw json.RawMessage)) {
	oe, ok := sess.(dom.OrderedEvents)
	if !ok {
		s.forward(pctx, sess, events, on)
		return
	}
	ch, cancel := oe.SubscribeOrdered(events...)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		for {
			select {
			case ev, ok := <-ch:
				if !ok {
					return
				}
				on(ev.Method, ev.Params)
			case <-pctx.Done():
				return
			}
		}
	}()
}

// handleDialog accepts or dismisses the open JavaScript dialog.
func (s *Service) handleDialog(ctx context.Context, page dom.Page, a dom.Action) error {
	s.mu.Lock()
	d, sess := s.dialog, s.dialogSess
	s.mu.Unlock()
	if d == nil {
		return dom.Errorf(dom.ValidationError, nil, "no JavaScript dialog is open")
	}
	params := map[string]any{"accept": a.Accept}
	if a.Accept && a.Text != "" {
		params["promptText"] = a.Text
	}
	if sess == nil {
		sess = page
	}
	err := s.call(ctx, sess, "Page.handleJavaScriptDialog", params, nil)
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "no dialog is showing") {
		s.dialogGone(d)
		return dom.Errorf(dom.ValidationError, err, "the dialog was already closed")
	}
	if err == nil {
		s.awaitDialogClosed(ctx, d)
	}
	return err
}

// awaitDialogClosed waits, briefly, until the browser has reported dialog
// d closed. So the action ends with the page's own state: a page may have
// opened its next dialog already. A close never reported is taken as done.
func (s *Service) awaitDialogClosed(ctx context.Context, d *dom.DialogInfo) {
	bound := time.NewTimer(dialogClosedWait)
	defer bound.Stop()
	for {
		s.mu.Lock()
		open, changed, pctx := s.dialog == d, s.track.changed, s.pageCtx
		s.mu.Unlock()
		if !open || pctx == nil {
			return
		}
		select {
		case <-changed:
		case <-bound.C:
			s.dialogGone(d)
			return
		case <-ctx.Done():
			s.dialogGone(d)
			return
		case <-pctx.Done():
			return
		}
	}
}

// dialogGone forgets dialog d, unless another dialog has taken its place.
func (s *Service) dialogGone(d *dom.DialogInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dialog == d {
		s.dialog = nil
		s.dialogSig = make(chan struct{})
	}
}
