package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/script"
	"domscope/dom/urls"
)

// NavigateArgs are dom_navigate's arguments.
type NavigateArgs struct {
	URL    string      `json:"url" jsonschema:"the address to open in the tab: a URL, a host (example.com), or a link's href relative to the page (products.html)"`
	Expect *dom.Expect `json:"expect,omitempty"`
}

// HistoryArgs are the arguments of dom_back, dom_forward and dom_reload.
type HistoryArgs struct {
	Expect *dom.Expect `json:"expect,omitempty"`
}

// WaitArgs are dom_wait's arguments.
type WaitArgs struct {
	Text    string `json:"text,omitempty" jsonschema:"wait until the view holds this text (case-insensitive), or with gone:true until it no longer does"`
	Gone    bool   `json:"gone,omitempty" jsonschema:"wait for text to disappear instead"`
	Ms      int    `json:"ms,omitempty" jsonschema:"with no text: wait this many milliseconds (at most 60000)"`
	Timeout int    `json:"timeout,omitempty" jsonschema:"with text, url or quiet: give up after this many milliseconds (default 5000, at most 60000)"`
	URL     string `json:"url,omitempty" jsonschema:"wait until the page's URL holds this"`
	Quiet   int    `json:"quiet,omitempty" jsonschema:"wait until the view has not changed for this many milliseconds"`
}

// DialogArgs are dom_dialog's arguments.
type DialogArgs struct {
	Accept bool        `json:"accept" jsonschema:"true presses OK (accept), false Cancel (dismiss)"`
	Text   string      `json:"text,omitempty" jsonschema:"the answer to type into a prompt() dialog, with accept:true"`
	Expect *dom.Expect `json:"expect,omitempty"`
}

// ViewportArgs are dom_viewport's arguments.
type ViewportArgs struct {
	Width  int     `json:"width,omitempty" jsonschema:"window width in CSS pixels"`
	Height int     `json:"height,omitempty" jsonschema:"window height in CSS pixels"`
	Device string  `json:"device,omitempty" jsonschema:"emulate a phone or tablet by name (size, scale, touch, user agent)"`
	Scale  float64 `json:"scale,omitempty" jsonschema:"device scale factor (1, 2, 3)"`
	Reset  bool    `json:"reset,omitempty" jsonschema:"go back to the browser's own window"`
}

func (s *Server) registerPage() {
	addTool(s, "dom_navigate", "Open a URL in the tab. Answers with the new page's visible part.",
		nil, s.navigateTool)
	addTool(s, "dom_back", "Go back in the tab's history.", nil, func(ctx context.Context, in HistoryArgs) reply {
		return s.act(ctx, dom.Action{Kind: dom.KindBack, Expect: in.Expect})
	})
	addTool(s, "dom_forward", "Go forward in the tab's history.", nil, func(ctx context.Context, in HistoryArgs) reply {
		return s.act(ctx, dom.Action{Kind: dom.KindForward, Expect: in.Expect})
	})
	addTool(s, "dom_reload", "Reload the page.", nil, func(ctx context.Context, in HistoryArgs) reply {
		return s.act(ctx, dom.Action{Kind: dom.KindReload, Expect: in.Expect})
	})
	addTool(s, "dom_dialog", "Accept or dismiss the JavaScript dialog (alert, confirm, prompt, beforeunload) that blocks the page; other tools fail with DIALOG_OPEN while one is open.",
		nil, func(ctx context.Context, in DialogArgs) reply {
			return s.act(ctx, dom.Action{Kind: dom.KindDialog, Accept: in.Accept, Text: in.Text, Expect: in.Expect})
		})
	addTool(s, "dom_wait", "Wait for text to appear in the view (or disappear, with gone:true), for the URL, for the view to stay still (quiet), or for a number of milliseconds. Answers with the lines of the view that changed meanwhile.",
		nil, s.waitTool)
	addTool(s, "dom_viewport", "Emulate a window size or a device (phone, tablet), or reset to the browser's own window. Answers with the view's changes.",
		nil, s.viewportTool)
}

// navigateTool completes the address as the page's links do, and lets
// the agent go only where the navigation policy allows.
func (s *Server) navigateTool(ctx context.Context, in NavigateArgs) reply {
	svc, err := s.service()
	if err != nil {
		return failed(err)
	}
	u, r, ok := s.allowed(ctx, svc, in.URL)
	if !ok {
		return r
	}
	return s.act(ctx, dom.Action{Kind: dom.KindNavigate, URL: u, Expect: in.Expect})
}

// allowed completes typed against the page svc shows (empty svc: no
// page) and checks it against the navigation policy. It answers the
// URL, or the error reply and false.
func (s *Server) allowed(ctx context.Context, svc Service, typed string) (string, reply, bool) {
	var base string
	if !urls.HasScheme(strings.TrimSpace(typed)) && svc != nil {
		if p, ok := svc.(interface {
			PageURL(context.Context) (string, error)
		}); ok {
			base, _ = p.PageURL(ctx)
		} else if snap := svc.Current(); snap != nil {
			base = snap.URL
		}
	}
	u, err := urls.Complete(typed, base)
	if err != nil {
		return "", failed(dom.Errorf(dom.ValidationError, nil, "url %s", dom.Clip(urls.Safe(err.Error()), 200))), false
	}
	if err := s.cfg.Navigation.Check(u); err != nil {
		be := err.(*urls.BlockedError)
		return "", reply{err: dom.Errorf(dom.NavigationBlocked, nil, "%s", be.Reason), hint: be.Hint}, false
	}
	return u, reply{}, true
}

func (s *Server) waitTool(ctx context.Context, in WaitArgs) reply {
	svc, err := s.service()
	if err != nil {
		return failed(err)
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	w, err := script.WaitUntil(ctx, svc, script.Until{Text: in.Text, Gone: in.Gone, URL: in.URL, Quiet: ms(in.Quiet), Sleep: ms(in.Ms), Timeout: ms(in.Timeout)})
	if err != nil {
		return failed(err)
	}
	s.shown(w.After)
	head := fmt.Sprintf("wait: ok, %.0f ms\n", float64(w.Duration.Microseconds())/1000)
	if w.Changes.Navigated {
		text, err := s.render(ctx, svc, w.After, viewOpts{})
		if err != nil {
			return failed(err)
		}
		return reply{text: head + "navigated to " + strings.TrimPrefix(text, "page: ")}
	}
	if in.URL != "" {
		// Where the page is: the wait held, so the address holds the text.
		head += "url: " + urls.Safe(w.After.URL) + "\n"
	}
	return reply{text: head + diffText(w.Changes)}
}

func (s *Server) viewportTool(ctx context.Context, in ViewportArgs) reply {
	var vp dom.Viewport
	if !in.Reset {
		if in.Device != "" {
			d, err := dom.LookupDevice(in.Device)
			if err != nil {
				return failed(dom.Errorf(dom.ValidationError, nil, "device %q: use one of %s", in.Device, dom.DeviceNames()))
			}
			vp = d
		}
		if in.Width != 0 || in.Height != 0 {
			vp.Width, vp.Height = in.Width, in.Height
		}
		if in.Scale != 0 {
			vp.Scale = in.Scale
		}
		if vp.IsZero() {
			return failed(dom.Errorf(dom.ValidationError, nil, "give width and height, a device, or reset:true"))
		}
		if err := vp.Check(); err != nil {
			return failed(err)
		}
	}
	return s.act(ctx, dom.Action{Kind: dom.KindViewport, Viewport: &vp})
}
