// Package serve is domscope's resident service: it keeps a live model of
// each tab it is asked about and answers over a private unix socket. The
// `serve` command is a thin front on it; the CLI's snapshot is its client.
package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"domscope/dom"
	"domscope/dom/render"
	"domscope/dom/serve/sock"
)

// Serve accepts clients on ln until ctx ends, the browser goes, or no
// request came for idle.
func (srv *Server) Serve(ctx context.Context, ln *net.UnixListener, idle time.Duration) error {
	ctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// Cancel first: that closes the connections the wait is for.
	defer func() {
		stop()
		wg.Wait()
	}()
	var active atomic.Int64
	var last atomic.Int64 // unix nanoseconds of the last request's end
	last.Store(time.Now().UnixNano())
	conns := make(chan net.Conn)
	acceptErr := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			select {
			case conns <- c:
			case <-ctx.Done():
				c.Close()
				return
			}
		}
	}()
	gone := browserGone(ctx, srv.browser)
	if srv.Watch {
		srv.watchSoon(ctx)
	}
	tick := time.NewTicker(min(idle/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-acceptErr:
			return err
		case <-gone:
			fmt.Fprintln(srv.Stderr, "domscope serve: the browser went away; stopping")
			return nil
		case <-tick.C:
			srv.dropIdle(idle)
			if srv.Watch {
				srv.watchSoon(ctx)
			}
			if active.Load() == 0 && time.Since(time.Unix(0, last.Load())) >= idle {
				fmt.Fprintf(srv.Stderr, "domscope serve: no request for %s; stopping\n", idle)
				return nil
			}
		case c := <-conns:
			active.Add(1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					last.Store(time.Now().UnixNano())
					active.Add(-1)
				}()
				srv.serveConn(ctx, c)
			}()
		}
	}
}

// serveConn answers one client's request.
func (srv *Server) serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	// A stopping server closes the connection, read or not.
	defer context.AfterFunc(ctx, func() { _ = c.Close() })()
	// A bug met by one request must not end the server.
	defer func() {
		if v := recover(); v != nil {
			// Quoted: a panic's text may hold a request's escapes.
			fmt.Fprintf(srv.Stderr, "domscope serve: internal error in a request, sent it direct: %q\n", fmt.Sprint(v))
			_ = writeReply(c, reply{Direct: "internal error"}, "")
		}
	}()
	if err := peerIsUs(c); err != nil {
		fmt.Fprintf(srv.Stderr, "domscope serve: refused %v\n", err)
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	req, err := readRequest(c)
	if err != nil {
		// Another version, or not a client at all: it may go direct.
		_ = writeReply(c, reply{Direct: err.Error()}, "")
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	if writeReply(c, reply{Accepted: true}, "") != nil {
		return
	}
	if req.Op == sock.OpArgv {
		// The command applies its own --timeout.
		srv.serveArgv(ctx, c, req)
		return
	}
	if req.Timeout <= 0 {
		req.Timeout = DefaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	start := time.Now()
	var text string
	if req.Op == OpCall {
		text, err = srv.call(rctx, req)
	} else {
		text, err = srv.snapshot(rctx, req)
	}
	outcome := "ok"
	if req.Op == OpCall && err == nil {
		if code := answerCode(text); code != "" {
			outcome = string(code)
		}
	}
	rep := reply{}
	if err != nil {
		outcome = string(dom.CodeOf(err))
		if errors.As(err, new(render.UsageError)) {
			outcome = "usage error"
		}
		rep, text = reply{Error: errorOf(err)}, ""
	}
	// A client that stops reading does not hold the server.
	_ = c.SetWriteDeadline(time.Now().Add(replyWriteBound))
	if err := writeReply(c, rep, text); err != nil {
		outcome = "failed: the client did not take the reply"
	}
	if srv.Log != nil {
		// No target or page text: a URL may hold a token.
		// Nor a string of the request as sent: it may hold escapes.
		format := req.Format
		if !render.KnownFormat(format) {
			format = "(unknown)"
		}
		what := "snapshot --format " + format
		if req.Op == OpCall {
			// The tool only: its arguments may hold typed text.
			what = agentLogName(req)
		}
		fmt.Fprintf(srv.Log, "domscope serve: %s → %s, %s\n", what, outcome, render.Ms(time.Since(start)))
	}
}

// replyWriteBound bounds the write of one reply.
const replyWriteBound = 30 * time.Second

// browserGone is closed once the browser stops answering.
func browserGone(ctx context.Context, b dom.Browser) <-chan struct{} {
	gone := make(chan struct{})
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			_, err := b.Targets(cctx)
			cancel()
			// A slow answer is a busy machine; a lost connection is the end.
			if err != nil && dom.CodeOf(err) == dom.NotAttached && ctx.Err() == nil {
				close(gone)
				return
			}
		}
	}()
	return gone
}
