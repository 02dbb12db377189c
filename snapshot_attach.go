package main

import (
	"context"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
)

// classicCapture is the value of DOMSCOPE_CAPTURE that makes `domscope
// snapshot` attach and capture as it did before issue 23: through
// chromedp, the whole capture fetched, then built. The output is the
// same; it is kept to compare the two.
const classicCapture = "classic"

// openSnapshot opens what `domscope snapshot` reads. On a tab that is
// already open it attaches directly (cdpconn.AttachDirect): two commands
// instead of chromedp's thirteen, which a one-shot process pays every
// time. A tab it must open (--url, --demo) or a browser it launches goes
// the usual way.
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

// takeSnapshot is how `domscope snapshot` captures and builds: decoding
// the page's parts as they arrive (capture.Take), or, classic, all at
// the end (capture.TakeWhole).
func takeSnapshot(mode string) func(context.Context, dom.Page, build.Options) (*dom.Snapshot, error) {
	if mode == classicCapture {
		return capture.TakeWhole
	}
	return capture.Take
}
