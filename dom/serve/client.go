package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"time"

	"domscope/dom"
	"domscope/dom/serve/sock"
)

// Ask asks the server at path for the snapshot. ok is false when there
// is no server, or it cannot answer: then go direct. A broken answer goes
// direct too; nothing was printed. A served error is an *Error.
func Ask(ctx context.Context, path string, req Request) (text string, ok bool, err error) {
	req.Protocol = Protocol
	if !sock.Safe(path) {
		return "", false, nil // no server, or not a safe one
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return "", false, nil
	}
	defer c.Close()
	Mark("dialed")
	if dl, has := ctx.Deadline(); has {
		_ = c.SetDeadline(dl)
	}
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return "", false, nil
	}
	r := bufio.NewReader(c)
	// A stopped (^Z) or stuck server does not accept: go direct soon.
	accept := time.Now().Add(acceptWait)
	if dl, has := ctx.Deadline(); has && dl.Before(accept) {
		accept = dl
	}
	_ = c.SetReadDeadline(accept)
	rep, err := readHead(r)
	if err != nil || !rep.Accepted {
		return "", false, ctxErr(ctx)
	}
	Mark("accepted")
	dl, _ := ctx.Deadline()
	_ = c.SetReadDeadline(dl)
	if rep, err = readHead(r); err != nil {
		return "", false, ctxErr(ctx)
	}
	Mark("answered")
	if rep.Direct != "" {
		return "", false, nil
	}
	if rep.Error != nil {
		return "", true, rep.Error
	}
	if rep.Length < 0 || rep.Length > maxServedView {
		return "", false, nil
	}
	// All of it before anything is printed: a cut-off view goes direct.
	body := make([]byte, rep.Length)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", false, ctxErr(ctx)
	}
	if extra, _ := r.Peek(1); len(extra) > 0 {
		return "", false, nil
	}
	return string(body), true, nil
}

// acceptWait is how long a client waits for the server to accept.
const acceptWait = 2 * time.Second

// errNotServed is a head line the client cannot use.
var errNotServed = errors.New("not a reply of this version")

// readHead reads one head line of a reply.
func readHead(r *bufio.Reader) (reply, error) {
	var rep reply
	line, err := r.ReadBytes('\n')
	if err != nil {
		return rep, err
	}
	if json.Unmarshal(line, &rep) != nil || rep.Protocol != Protocol {
		return rep, errNotServed
	}
	return rep, nil
}

// ctxErr is the command's timeout when it ran out while the server
// worked. Else nil: the server went away, and the snapshot goes direct.
// The socket's read deadline is the context's, and may pass a moment
// before the context's own timer fires: the deadline decides.
func ctxErr(ctx context.Context) error {
	cause := ctx.Err()
	if dl, has := ctx.Deadline(); cause == nil && has && !time.Now().Before(dl) {
		cause = context.DeadlineExceeded
	}
	if cause != nil {
		return dom.Errorf(dom.Timeout, cause, "domscope serve did not answer in time: raise --timeout, or pass --direct")
	}
	return nil
}

// maxServedView bounds the length a client believes: 1 GiB.
const maxServedView = 1 << 30
