package main

import (
	"context"
	"time"

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
// already open it attaches directly (cdpconn.OpenDirect). That takes at
// most two commands instead of chromedp's thirteen. A one-shot process
// pays them every time. The capture's reads go behind the page's probe,
// not after its answer (see probeFailed). A tab it must open (--url,
// --demo) or a browser it launches goes the usual way.
func (c *connFlags) openSnapshot(ctx context.Context, capture string) (*session, error) {
	if c.launch || c.demo || c.url != "" || capture == classicCapture {
		return c.open(ctx)
	}
	vp, err := c.emulation()
	if err != nil {
		return nil, err
	}
	p, err := cdpconn.OpenDirect(ctx, c.endpoint, c.allowRemote, c.target)
	if err != nil {
		return nil, err
	}
	s := &session{page: p}
	if err := emulate(ctx, p, vp); err != nil {
		if perr := probeFailed(ctx, p); perr != nil {
			err = perr
		}
		s.Close()
		return nil, err
	}
	return s, nil
}

// prober is a page whose first answer may still be on its way
// (cdpconn.DirectPage).
type prober interface {
	Answered(context.Context) error
}

// probeFailed is the attach error of a page that never answered its
// probe. A capture that failed on such a page says that, not what the
// capture was reading. It waits a moment at most: the probe ends with
// the command's context.
func probeFailed(ctx context.Context, p dom.Page) error {
	pr, ok := p.(prober)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	return pr.Answered(ctx)
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
