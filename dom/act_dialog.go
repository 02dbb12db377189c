package dom

import (
	"context"
	"strings"
)

// dispatch sends an input command that a JavaScript dialog may block: an
// alert() in a click handler stops the renderer, and Chrome answers the
// input command only after the dialog is closed. So the call runs on its
// own goroutine and dispatch returns as soon as either it answers or a
// dialog opens (the dialog is then returned and the call finishes later,
// bounded by CallTimeout, once someone handles the dialog).
func (s *Service) dispatch(ctx context.Context, sess Session, method string, params any) (*DialogInfo, error) {
	s.mu.Lock()
	sig, open := s.dialogSig, s.dialog
	s.mu.Unlock()
	if open != nil {
		return open, nil
	}
	done := make(chan error, 1)
	// The call must outlive this function when a dialog opens, so it does
	// not use ctx: the service's lifetime and CallTimeout bound it.
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		done <- s.call(s.ctx, sess, method, params, nil)
	}()
	select {
	case err := <-done:
		return nil, err
	case <-sig:
		return s.Dialog(), nil
	case <-ctx.Done():
		return nil, Errorf(Timeout, ctx.Err(), "%s was cancelled", method)
	}
}

// handleDialog accepts or dismisses the open JavaScript dialog.
func (s *Service) handleDialog(ctx context.Context, page Page, a Action) error {
	d := s.Dialog()
	if d == nil {
		return Errorf(ValidationError, nil, "no JavaScript dialog is open")
	}
	params := map[string]any{"accept": a.Accept}
	if a.Accept && a.Text != "" {
		params["promptText"] = a.Text
	}
	s.mu.Lock()
	sess := s.dialogSess
	s.mu.Unlock()
	if sess == nil {
		sess = page
	}
	err := s.call(ctx, sess, "Page.handleJavaScriptDialog", params, nil)
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "no dialog is showing") {
		s.mu.Lock()
		if s.dialog != nil {
			s.dialog = nil
			s.dialogSig = make(chan struct{})
		}
		s.mu.Unlock()
		return Errorf(ValidationError, err, "the dialog was already closed")
	}
	if err == nil {
		// Page.javascriptDialogClosed will say so too; do not wait for it.
		s.mu.Lock()
		if s.dialog != nil {
			s.dialog = nil
			s.dialogSig = make(chan struct{})
		}
		s.mu.Unlock()
	}
	return err
}
