package live

import (
	"context"
	"strings"

	"domscope/dom"
	"domscope/dom/urls"
)

// navigate loads a URL, goes back or forward in history, or reloads. The
// commands run under dispatch because a beforeunload dialog blocks them.
func (s *Service) navigate(ctx context.Context, page dom.Page, a dom.Action) (*dom.DialogInfo, error) {
	switch a.Kind {
	case "reload":
		return s.dispatch(ctx, page, "Page.reload", map[string]any{})
	case "back", "forward":
		var h navHistory
		if err := s.call(ctx, page, "Page.getNavigationHistory", nil, &h); err != nil {
			return nil, err
		}
		i := h.CurrentIndex - 1
		if a.Kind == "forward" {
			i = h.CurrentIndex + 1
		}
		if i < 0 || i >= len(h.Entries) {
			return nil, dom.Errorf(dom.ValidationError, nil, "there is no page to go %s to in this tab's history", a.Kind)
		}
		return s.dispatch(ctx, page, "Page.navigateToHistoryEntry", map[string]any{"entryId": h.Entries[i].ID})
	}
	if strings.TrimSpace(a.URL) == "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "navigate needs a url")
	}
	var base string
	if !urls.HasScheme(strings.TrimSpace(a.URL)) {
		// a relative address resolves against the page, as its links do
		var h navHistory
		if err := s.call(ctx, page, "Page.getNavigationHistory", nil, &h); err == nil {
			base = h.current()
		}
	}
	u, err := urls.Complete(a.URL, base)
	if err != nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "navigate: %s", dom.Clip(urls.Safe(err.Error()), 200))
	}
	if strings.HasPrefix(strings.ToLower(u), "javascript:") {
		return nil, dom.Errorf(dom.ValidationError, nil, "javascript: URLs are not navigations; refusing %q", dom.Clip(urls.Safe(u), 80))
	}
	var r struct {
		ErrorText string `json:"errorText"`
	}
	res := make(chan error, 1)
	// Page.navigate answers after the new document commits; a beforeunload
	// dialog holds it, so watch for dialogs like an input event.
	s.mu.Lock()
	sig := s.dialogSig
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		res <- s.call(s.ctx, page, "Page.navigate", map[string]any{"url": u}, &r)
	}()
	select {
	case err := <-res:
		if err != nil {
			return nil, err
		}
		if r.ErrorText != "" {
			return nil, dom.Errorf(dom.CDPError, nil, "could not load %s: %s", dom.Clip(urls.Safe(u), 200), r.ErrorText)
		}
		return nil, nil
	case <-sig:
		return s.Dialog(), nil
	case <-ctx.Done():
		return nil, dom.Errorf(dom.Timeout, ctx.Err(), "navigation to %s was cancelled", dom.Clip(urls.Safe(u), 200))
	}
}

// navHistory is Page.getNavigationHistory's answer.
type navHistory struct {
	CurrentIndex int `json:"currentIndex"`
	Entries      []struct {
		ID  int64  `json:"id"`
		URL string `json:"url"`
	} `json:"entries"`
}

// current is the URL of the tab's current entry ("" if none).
func (h navHistory) current() string {
	if h.CurrentIndex < 0 || h.CurrentIndex >= len(h.Entries) {
		return ""
	}
	return h.Entries[h.CurrentIndex].URL
}

// PageURL is the URL of the page as the browser has it, secrets and all.
// A relative address resolves against it.
func (s *Service) PageURL(ctx context.Context) (string, error) {
	s.mu.Lock()
	page := s.page
	s.mu.Unlock()
	if page == nil {
		return "", dom.Errorf(dom.NotAttached, nil, "no page")
	}
	var h navHistory
	if err := s.call(ctx, page, "Page.getNavigationHistory", nil, &h); err != nil {
		return "", err
	}
	return h.current(), nil
}
