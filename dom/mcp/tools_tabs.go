package mcp

import (
	"context"
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/tabs"
	"domscope/dom/urls"
)

// tab is one tab of the server's pool.
type tab = tabs.Entry[Service]

// TabsArgs are dom_tabs' arguments.
type TabsArgs struct {
	Action string `json:"action,omitempty" jsonschema:"list (default), select, new or close"`
	Tab    string `json:"tab,omitempty" jsonschema:"for select and close: the tab's index in the list, its id, or part of its URL or title (close defaults to the current tab)"`
	URL    string `json:"url,omitempty" jsonschema:"for new: the address to open (default about:blank)"`
}

func (s *Server) registerTabs() {
	addTool(s, "dom_tabs", "List the browser's tabs, select one to act on, open a new one, or close one. The tools act on the selected tab; each tab keeps its own ids.",
		map[string][]any{"action": {"list", "select", "new", "close"}}, s.tabsTool)
}

func (s *Server) tabsTool(ctx context.Context, in TabsArgs) reply {
	switch in.Action {
	case "", "list":
		return s.listTabs(ctx)
	case "select":
		return s.selectTab(ctx, in.Tab)
	case "new":
		return s.newTab(ctx, in.URL)
	case "close":
		return s.closeTab(ctx, in.Tab)
	}
	return failed(dom.Errorf(dom.ValidationError, nil, "action %q: use list, select, new or close", in.Action))
}

// targets lists the browser's page tabs. Without a browser it lists only
// the current one.
func (s *Server) targets(ctx context.Context) ([]dom.TargetInfo, error) {
	if s.cfg.Browser == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.cur == nil {
			return nil, nil
		}
		info := dom.TargetInfo{ID: s.cur.ID, Type: "page"}
		if snap := s.cur.Service().Current(); snap != nil {
			info.URL, info.Title = snap.URL, snap.Title
		}
		return []dom.TargetInfo{info}, nil
	}
	all, err := s.cfg.Browser.Targets(ctx)
	if err != nil {
		return nil, err
	}
	var out []dom.TargetInfo
	for _, t := range all {
		if t.Type == "" || t.Type == "page" {
			out = append(out, t)
		}
	}
	return out, nil
}

func (s *Server) listTabs(ctx context.Context) reply {
	tabs, err := s.targets(ctx)
	if err != nil {
		return failed(err)
	}
	s.mu.Lock()
	cur := ""
	if s.cur != nil {
		cur = s.cur.ID
	}
	s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "tabs (%d; * is the one the tools act on):\n", len(tabs))
	for i, t := range tabs {
		mark := " "
		if t.ID == cur {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s%d %s %s id=%s\n", mark, i, quote(dom.Clip(urls.SafeTitle(t.Title, t.URL), 100)), bare(urls.Safe(t.URL)), t.ID)
	}
	return reply{text: b.String()}
}

// pick finds the tab spec names, as --target does (tabs.Pick): its id,
// its index in the list, or part of its URL, then of its title. It must
// name one tab.
func pick(open []dom.TargetInfo, spec string) (dom.TargetInfo, error) {
	if strings.TrimSpace(spec) == "" {
		return dom.TargetInfo{}, dom.Errorf(dom.ValidationError, nil, "name the tab: its index in dom_tabs list, its id, or part of its URL or title")
	}
	return tabs.Pick(open, spec)
}

func (s *Server) selectTab(ctx context.Context, spec string) reply {
	tabs, err := s.targets(ctx)
	if err != nil {
		return failed(err)
	}
	t, err := pick(tabs, spec)
	if err != nil {
		return failed(err)
	}
	tb, err := s.attached(ctx, t.ID)
	if err != nil {
		return failed(err)
	}
	return s.switchTo(ctx, tb, "selected tab "+t.ID)
}

// attached is the tab with target id. The first time, it attaches to it
// and starts its service.
func (s *Server) attached(ctx context.Context, id string) (*tab, error) {
	if t := s.pool.Served(id); t != nil {
		return t, t.Wait(ctx)
	}
	if s.cfg.Browser == nil || s.cfg.NewService == nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "this server acts on one tab only")
	}
	t, err := s.pool.Claim(dom.TargetInfo{ID: id}, nil)
	if err != nil {
		return nil, err
	}
	return t, t.Wait(ctx)
}

// switchTo makes t the tab the tools act on. It answers with its view.
func (s *Server) switchTo(ctx context.Context, t *tab, head string) reply {
	s.mu.Lock()
	if s.cur != t {
		s.cur = t
		s.seen, s.gone = nil, map[string]nodeSig{} // ids are per tab
	}
	s.mu.Unlock()
	snap, err := t.Service().Snapshot(ctx, false)
	if err != nil {
		return reply{text: head + "\n", err: dom.ErrorOf(err)}
	}
	text, err := s.render(ctx, t.Service(), snap, viewOpts{})
	if err != nil {
		return failed(err)
	}
	return reply{text: head + "\n" + text}
}

func (s *Server) newTab(ctx context.Context, url string) reply {
	if s.cfg.Browser == nil || s.cfg.NewService == nil {
		return failed(dom.Errorf(dom.ValidationError, nil, "this server acts on one tab only"))
	}
	if url == "" {
		url = "about:blank"
	}
	url, r, ok := s.allowed(ctx, nil, url)
	if !ok {
		return r
	}
	t, err := s.pool.Open(ctx, url, nil)
	if err != nil {
		return failed(err)
	}
	return s.switchTo(ctx, t, "opened and selected tab "+t.ID)
}

func (s *Server) closeTab(ctx context.Context, spec string) reply {
	s.mu.Lock()
	var t *tab
	if spec == "" {
		t = s.cur
	}
	s.mu.Unlock()
	if t == nil {
		tabs, err := s.targets(ctx)
		if err != nil {
			return failed(err)
		}
		info, err := pick(tabs, spec)
		if err != nil {
			return failed(err)
		}
		if t, err = s.attached(ctx, info.ID); err != nil {
			return failed(err)
		}
	}
	if t.Page() == nil {
		return failed(dom.Errorf(dom.ValidationError, nil, "this tab cannot be closed from here"))
	}
	// Page.close closes any tab; detaching closes only those we opened.
	if err := t.Page().Call(ctx, "Page.close", nil, nil); err != nil {
		return failed(err)
	}
	wasCur := s.forget(t)
	s.mu.Lock()
	if left := s.pool.List(); wasCur && len(left) > 0 {
		s.cur = left[0]
	}
	next := s.cur
	s.mu.Unlock()
	head := "closed tab " + t.ID
	if !wasCur {
		return reply{text: head + "\n"}
	}
	if next == nil {
		return reply{text: head + "; no tab is selected now: dom_tabs list, then select or new\n"}
	}
	return s.switchTo(ctx, next, head+"; now on tab "+next.ID)
}

// forget drops a closed tab. It reports whether the tools acted on it;
// then no tab is selected.
func (s *Server) forget(t *tab) bool {
	s.pool.Drop(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != t {
		return false
	}
	s.cur, s.seen, s.gone = nil, nil, map[string]nodeSig{}
	return true
}

// closedTab answers NOT_ATTACHED plainly when the selected tab is gone
// from the browser: someone closed it, and retrying cannot help.
func (s *Server) closedTab(ctx context.Context, r reply) reply {
	e := r.err
	if e == nil && r.result != nil {
		e = r.result.Error
	}
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	if e == nil || e.Code != dom.NotAttached || cur == nil || s.cfg.Browser == nil || cur.Service().State() == dom.Reconnecting {
		return r // a reconnecting service may come back on another tab id
	}
	tabs, err := s.targets(ctx)
	if err != nil {
		return r
	}
	for _, t := range tabs {
		if t.ID == cur.ID {
			return r // still there: a reconnect may bring it back
		}
	}
	s.forget(cur)
	closed := dom.Errorf(dom.NotAttached, nil, "the selected tab %s was closed", cur.ID)
	closed.Recoverable = false
	if r.result != nil && r.result.Error != nil {
		r.result.Error = closed
	}
	r.err = closed
	r.hint = hintClosedTab
	return r
}
