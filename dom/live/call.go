package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"domscope/dom"
)

// callCtx derives a context for browser calls. It ends at the caller's
// end, after d, or when the page's connection is lost, whichever is first.
func (s *Service) callCtx(ctx, pageCtx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithTimeout(ctx, d)
	if pageCtx == nil {
		return cctx, cancel
	}
	stop := context.AfterFunc(pageCtx, cancel)
	return cctx, func() {
		stop()
		cancel()
	}
}

// call sends one CDP command on sess, bounded by CallTimeout. It turns
// failures into *Error values with codes, which a person can act on.
func (s *Service) call(ctx context.Context, sess dom.Session, method string, params, result any) error {
	s.mu.Lock()
	pctx := s.pageCtx
	s.mu.Unlock()
	dctx, opened, stop := s.dialogCtx(ctx)
	defer stop()
	cctx, cancel := s.callCtx(dctx, pctx, s.cfg.CallTimeout)
	defer cancel()
	err := sess.Call(cctx, method, params, result)
	if err == nil {
		return nil
	}
	if opened() {
		return s.dialogErr(method)
	}
	return s.mapErr(ctx, pctx, cctx, method, err)
}

// dialogCtx derives a context that ends when a JavaScript dialog opens.
// A dialog blocks the renderer, so calls waiting on it would only time out.
// When a dialog is already open, nothing is watched: handling it is what
// the caller is doing. opened reports whether a dialog ended the context.
func (s *Service) dialogCtx(ctx context.Context) (context.Context, func() bool, func()) {
	s.mu.Lock()
	sig, open := s.dialogSig, s.dialog != nil
	s.mu.Unlock()
	if open {
		return ctx, func() bool { return false }, func() {}
	}
	dctx, cancel := context.WithCancel(ctx)
	fired := make(chan struct{})
	go func() {
		select {
		case <-sig:
			close(fired)
			cancel()
		case <-dctx.Done():
		}
	}()
	opened := func() bool {
		select {
		case <-fired:
			return ctx.Err() == nil
		default:
			return false
		}
	}
	return dctx, opened, cancel
}

func (s *Service) dialogErr(during string) error {
	d := s.Dialog()
	if d == nil {
		return dom.Errorf(dom.CDPError, nil, "a JavaScript dialog opened during %s", during)
	}
	return dom.DialogBlocks(d, "a dialog opened during "+during)
}

func (s *Service) mapErr(ctx, pctx, cctx context.Context, method string, err error) error {
	if pctx != nil && pctx.Err() != nil {
		return dom.Errorf(dom.NotAttached, err, "the page went away during %s (tab closed or browser exited)", method)
	}
	// cdpconn already wraps failures as *Error; only its generic
	// CDP_ERROR is refined here from the browser's message.
	var de *dom.Error
	if errors.As(err, &de) && de.Code != dom.CDPError {
		return de
	}
	switch {
	case ctx.Err() != nil:
		return dom.Errorf(dom.Timeout, err, "%s was cancelled", method)
	case cctx.Err() != nil:
		return dom.Errorf(dom.Timeout, err, "the page did not answer %s within %s (is it busy or blocked by a dialog?)", method, s.cfg.CallTimeout)
	}
	msg := err.Error()
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "no node with given id"),
		strings.Contains(low, "could not find node with given id"),
		strings.Contains(low, "node is detached"),
		strings.Contains(low, "no node found"),
		strings.Contains(low, "node not found"):
		return dom.Errorf(dom.NodeStale, err, "the node is no longer in the page (removed or re-rendered): take a new snapshot and use its id")
	case strings.Contains(low, "could not compute content quads"),
		strings.Contains(low, "could not compute box model"),
		strings.Contains(low, "does not have a layout object"):
		return dom.Errorf(dom.NotInteractable, err, "the node has no box on screen (hidden, display:none or zero size)")
	case strings.Contains(low, "not focusable"):
		return dom.Errorf(dom.NotInteractable, err, "the node cannot take focus")
	case strings.Contains(low, "session with given id not found"),
		strings.Contains(low, "target closed"),
		strings.Contains(low, "no target with given id"),
		strings.Contains(low, "connection closed"),
		strings.Contains(low, "websocket: close"):
		return dom.Errorf(dom.NotAttached, err, "the target went away during %s", method)
	}
	return dom.Errorf(dom.CDPError, err, "%s failed", method)
}

// asError is errors.As for *Error, named for readability at call sites.
func asError(err error, target **dom.Error) bool { return errors.As(err, target) }

// session returns the page, its lifetime context, or NOT_ATTACHED.
func (s *Service) session() (dom.Page, context.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != dom.Connected || s.page == nil {
		return nil, nil, notAttached(s.state)
	}
	return s.page, s.pageCtx, nil
}

// withNode adds the node's description to an error message.
func withNode(err error, n *dom.VirtualNode) error {
	var de *dom.Error
	if asError(err, &de) && (de.Code == dom.NodeStale || de.Code == dom.NotInteractable) {
		c := *de
		c.Message = fmt.Sprintf("%s (%s): %s", n.ID, describeNode(n), de.Message)
		return &c
	}
	return err
}

// snapshotBound bounds one snapshot: four calls' worth, or the caller's
// own deadline when it gave more (--timeout 3m for a huge page on a
// loaded machine), up to maxSnapshotBound: a snapshot holds the tab. A
// nearer deadline is the bound, as the timeout message says.
func (s *Service) snapshotBound(ctx context.Context) time.Duration {
	bound := 4 * s.cfg.CallTimeout
	dl, ok := ctx.Deadline()
	if !ok {
		return bound
	}
	left := time.Until(dl)
	if left <= bound {
		return left
	}
	return min(left, maxSnapshotBound)
}

// maxSnapshotBound caps the time a caller's deadline gives a snapshot.
const maxSnapshotBound = 5 * time.Minute
