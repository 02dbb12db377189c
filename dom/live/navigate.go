package live

import (
	"context"
	"strings"

	"domscope/dom"
)

// navigate loads a URL, goes back or forward in history, or reloads. The
// commands run under dispatch because a beforeunload dialog blocks them.
func (s *Service) navigate(ctx context.Context, page dom.Page, a dom.Action) (*dom.DialogInfo, error) {
	switch a.Kind {
	case "reload":
		return s.dispatch(ctx, page, "Page.reload", map[string]any{})
	case "back", "forward":
		var h struct {
			CurrentIndex int `json:"currentIndex"`
			Entries      []struct {
				ID  int64  `json:"id"`
				URL string `json:"url"`
			} `json:"entries"`
		}
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
	u := normalizeURL(a.URL)
	if u == "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "navigate needs a url")
	}
	if strings.HasPrefix(strings.ToLower(u), "javascript:") {
		return nil, dom.Errorf(dom.ValidationError, nil, "javascript: URLs are not navigations; refusing %q", dom.Clip(dom.SafeURL(u), 80))
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
			return nil, dom.Errorf(dom.CDPError, nil, "could not load %s: %s", dom.Clip(dom.SafeURL(u), 200), r.ErrorText)
		}
		return nil, nil
	case <-sig:
		return s.Dialog(), nil
	case <-ctx.Done():
		return nil, dom.Errorf(dom.Timeout, ctx.Err(), "navigation to %s was cancelled", dom.Clip(dom.SafeURL(u), 200))
	}
}

// normalizeURL adds a scheme to bare hosts ("example.com" → https://,
// "localhost:8080" → http://).
func normalizeURL(u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return ""
	}
	low := strings.ToLower(u)
	for _, p := range []string{"about:", "data:", "file:", "javascript:", "chrome:", "blob:"} {
		if strings.HasPrefix(low, p) {
			return u
		}
	}
	if strings.Contains(u, "://") {
		return u
	}
	if strings.HasPrefix(low, "localhost") || strings.HasPrefix(low, "127.") || strings.HasPrefix(low, "[::1]") {
		return "http://" + u
	}
	return "https://" + u
}
