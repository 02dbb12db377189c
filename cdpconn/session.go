package cdpconn

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/chromedp"

	"domscope/dom"
)

// callTimeout caps a command whose context has no deadline of its own.
const callTimeout = 2 * time.Minute

// session is one CDP session, a page or an out-of-process frame. It is
// seen through dom.Session: raw JSON in, raw JSON out.
type session struct {
	t *chromedp.Target
	// life is the chromedp context of the session. When it ends (Detach),
	// calls fail at once with NOT_ATTACHED instead of waiting.
	life context.Context
}

var _ dom.Session = session{}

// Call sends method with params and decodes the reply into result. A
// *json.RawMessage keeps the bytes as they came.
func (s session) Call(ctx context.Context, method string, params, result any) error {
	var pv jsonv2.Value
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		pv = jsonv2.Value(p)
	case []byte:
		pv = jsonv2.Value(p)
	default:
		b, err := json.Marshal(params)
		if err != nil {
			return dom.Errorf(dom.ValidationError, err, "%s: bad parameters", method)
		}
		pv = jsonv2.Value(b)
	}
	if s.life.Err() != nil {
		return dom.Errorf(dom.NotAttached, nil, "%s: the session is detached", method)
	}
	parent := ctx
	ctx, cancel := withDefaultTimeout(ctx, callTimeout)
	defer cancel()
	stop := context.AfterFunc(s.life, cancel)
	defer stop()
	start := time.Now()
	// alias keeps the reply as a slice of the message the transport read,
	// with no copy. A 40 MB accessibility tree is held once.
	var raw alias
	var err error
	if pv == nil {
		err = s.t.Call(ctx, method, nil, &raw)
	} else {
		err = s.t.Call(ctx, method, pv, &raw)
	}
	if err != nil {
		if s.life.Err() != nil {
			return dom.Errorf(dom.NotAttached, err, "%s: the session is detached", method)
		}
		if timedOut(err) {
			return notAnswering(dom.Timeout, "the page", method, time.Since(start), nil)
		}
		if parent.Err() != nil && errors.Is(err, context.Canceled) && !s.lost() {
			// The caller gave up (a dialog opened, the user quit). The
			// page is still there, so this is no NOT_ATTACHED.
			return dom.Errorf(dom.Timeout, err, "%s: cancelled before the page answered", method)
		}
		return wrapErr(err, method)
	}
	return decodeResult(method, raw, result)
}

// lost reports whether the connection to the browser has dropped.
func (s session) lost() bool {
	c := chromedp.FromContext(s.life)
	if c == nil || c.Browser == nil {
		return true
	}
	select {
	case <-c.Browser.LostConnection:
		return true
	default:
		return false
	}
}

// Subscribe buffers the events of method from now on. cancel stops it and
// closes the channel. The buffer has no limit, so a slow reader never
// blocks the connection.
func (s session) Subscribe(method string) (<-chan json.RawMessage, func()) {
	in, stop := s.t.Subscribe(method)
	out := make(chan json.RawMessage)
	done := make(chan struct{})
	go func() {
		defer close(out)
		for v := range in {
			select {
			case out <- json.RawMessage(v):
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() {
			close(done)
			stop()
		})
	}
}

// wrapErr turns a chromedp error into a *dom.Error with a code.
func wrapErr(err error, what string) error {
	var de *dom.Error
	var ce *cdproto.Error
	switch {
	case errors.As(err, &de):
		return err
	case errors.Is(err, chromedp.ErrTargetDetached):
		return dom.Errorf(dom.NotAttached, err, "%s: the target went away (tab closed, crashed or detached)", what)
	case errors.Is(err, context.DeadlineExceeded):
		return dom.Errorf(dom.Timeout, err, "%s: the browser did not answer in time", what)
	case errors.Is(err, context.Canceled):
		return dom.Errorf(dom.NotAttached, err, "%s: canceled (connection closed or lost)", what)
	case errors.As(err, &ce):
		return dom.Errorf(dom.CDPError, err, "%s failed", what)
	}
	return dom.Errorf(dom.CDPError, err, "%s", what)
}
