package main

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/demo"
	domtabs "domscope/dom/tabs"
	"domscope/dom/urls"
)

// connFlags are the flags every command that talks to a browser shares.
type connFlags struct {
	endpoint    string
	launch      bool
	url         string
	target      string
	allowRemote bool
	demo        bool
	headless    bool
	timeout     time.Duration
	// viewport, device and scale emulate the agent's window (viewport.go).
	viewport string
	device   string
	scale    float64
	// targetGiven: --target was on the command line. It is not a default
	// from the config file or the environment. Only a given --target
	// conflicts with --url; a default one gives way.
	targetGiven bool
}

// defaultTimeout is --timeout's default. A served request that names no
// timeout gets it too.
const defaultTimeout = 90 * time.Second

func (c *connFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&c.endpoint, "endpoint", cdpconn.DefaultEndpoint, "the DevTools endpoint: http://host:port, a local port (9222), ws://host:port/devtools/browser/<id>, or a browser farm's ws(s):// URL with its token (used as given)")
	fs.BoolVar(&c.launch, "launch", false, "launch a local Chromium (headless when there is no display) instead of connecting")
	fs.StringVar(&c.url, "url", "", "open this URL in a new tab (closed again on exit)")
	fs.StringVar(&c.target, "target", "", "attach to an existing tab: target id, 0-based index, or URL/title substring")
	fs.BoolVar(&c.allowRemote, "allow-remote", false, "allow a non-loopback endpoint (a CDP port is full control of a browser)")
	fs.BoolVar(&c.demo, "demo", false, "serve the built-in demo pages on loopback and open them")
	fs.BoolVar(&c.headless, "headless", false, "with --launch: headless even when a display is available")
	fs.DurationVar(&c.timeout, "timeout", defaultTimeout, "give up on the browser after this long")
	c.registerViewport(fs)
}

// session is an attached page and what must be closed after it.
type session struct {
	browser *cdpconn.Browser
	page    dom.Page
	closers []func()
	// demoBase is where --demo serves its pages ("" without it).
	demoBase string
}

func (s *session) Close() {
	if s.page != nil {
		_ = s.page.Detach()
	}
	if s.browser != nil {
		_ = s.browser.Close()
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// given notes which flags were on the command line, once fs is parsed.
func (c *connFlags) given(fs *pflag.FlagSet) {
	c.targetGiven = flagGiven(fs, "target")
}

// startURL is --url completed as an address bar does ("example.com" is
// https://example.com). With --demo a path names a demo page.
func (c *connFlags) startURL() (string, error) {
	if c.url == "" || c.demo && !strings.Contains(c.url, "://") {
		return c.url, nil
	}
	u, err := urls.Complete(c.url, "")
	if err != nil {
		return "", usageError{"--url " + err.Error()}
	}
	return u, nil
}

// open connects (or launches) and attaches to the page the flags name.
func (c *connFlags) open(ctx context.Context) (*session, error) {
	vp, err := c.emulation()
	if err != nil {
		return nil, err
	}
	url, err := c.startURL()
	if err != nil {
		return nil, err
	}
	s := &session{}
	if c.demo {
		base, stop, err := demo.Serve()
		if err != nil {
			return nil, err
		}
		s.closers = append(s.closers, stop)
		s.demoBase = base
		if url == "" {
			url = base + "/"
		} else if !strings.Contains(url, "://") {
			url = base + "/" + strings.TrimPrefix(url, "/")
		}
	}
	target := c.target
	if url != "" && target != "" {
		if c.targetGiven {
			s.Close()
			return nil, usageError{"give --url (or --demo) or --target, not both"}
		}
		target = ""
	}
	if c.launch {
		s.browser, err = cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: c.headless})
	} else {
		s.browser, err = cdpconn.Connect(ctx, c.endpoint, c.allowRemote)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	if url != "" {
		s.page, err = s.browser.NewPage(ctx, url)
	} else {
		var tabs []dom.TargetInfo
		if tabs, err = s.browser.Targets(ctx); err == nil {
			var t dom.TargetInfo
			if t, err = domtabs.Pick(tabs, target); err == nil {
				s.page, err = s.browser.Attach(ctx, t.ID)
			}
		}
	}
	if err == nil {
		err = emulate(ctx, s.page, vp)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}
