package main

import (
	"context"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
)

// classicCapture is the value of DOMSCOPE_CAPTURE that makes `domscope
// snapshot` work as before issue 23. It attaches through chromedp,
// fetches the whole capture, then builds. The output is the same. It is
// kept to compare the two.
const classicCapture = "classic"

// openSnapshot opens what `domscope snapshot` reads. On a tab that is
// already open it attaches directly (cdpconn.AttachDirect). That takes
// two commands instead of chromedp's thirteen. A one-shot process pays
// them every time. A tab it must open (--url, --demo) or a browser it
// launches goes the usual way.
func (c *connFlags) openSnapshot(ctx context.Context, capture string) (*session, error) {
	if c.launch || c.demo || c.url != "" || capture == classicCapture {
		return c.open(ctx)
	}
	vp, err := c.emulation()
	if err != nil {
		return nil, err
	}
	p, err := cdpconn.AttachDirect(ctx, c.endpoint, c.allowRemote, c.target)
	if err != nil {
		return nil, err
	}
	s := &session{page: p}
	if err := emulate(ctx, p, vp); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// takeSnapshot is how `domscope snapshot` captures and builds. It decodes
// the page's parts as they arrive (capture.Take). Classic decodes them
// all at the end (capture.TakeWhole).
func takeSnapshot(mode string) func(context.Context, dom.Page, build.Options) (*dom.Snapshot, error) {
	if mode == classicCapture {
		return capture.TakeWhole
	}
	return capture.Take
}
