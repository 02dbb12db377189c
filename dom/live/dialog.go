package live

import (
	"context"
	"strings"

	"domscope/dom"
)

// handleDialog accepts or dismisses the open JavaScript dialog.
func (s *Service) handleDialog(ctx context.Context, page dom.Page, a dom.Action) error {
	d := s.Dialog()
	if d == nil {
		return dom.Errorf(dom.ValidationError, nil, "no JavaScript dialog is open")
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
		return dom.Errorf(dom.ValidationError, err, "the dialog was already closed")
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
