package cdpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/chromedp/cdproto"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
)

// transport carries CDP messages over a websocket. Each message is read
// into a buffer of exactly its size. Its "result" or "params" stay slices
// of that buffer all the way to the caller (see alias). So a reply is
// held once, not copied three times. chromedp's remote.Conn copies each
// reply twice. It reuses one decoder whose buffer grows to the largest
// reply. The buffer keeps that size for the connection's life. It is
// 64 MB after the 40 MB accessibility tree of a 50,000-element page.
type transport struct {
	ws   *websocket.Conn
	hand handOvers
}

var _ chromedp.Transport = (*transport)(nil)

// envelope is cdproto.Message with its payloads kept as slices of the
// message.
type envelope struct {
	ID        int64              `json:"id"`
	SessionID target.SessionID   `json:"sessionId"`
	Method    cdproto.MethodType `json:"method"`
	Params    alias              `json:"params"`
	Result    alias              `json:"result"`
	Error     *cdproto.Error     `json:"error"`
}

// alias is a JSON value kept as a slice of the bytes it was decoded from,
// without a copy. The transport reads every message into a buffer of its
// own. Nothing writes to it again, so keeping slices of it is safe.
type alias []byte

func (a *alias) UnmarshalJSON(b []byte) error {
	data, token, err := takeReply(b)
	if !token {
		*a = b
		return nil
	}
	*a = data
	return err
}

func (t *transport) Read(ctx context.Context, msg *cdproto.Message) error {
	typ, r, err := t.ws.Reader(ctx)
	if err != nil {
		return err
	}
	data, err := readExact(r)
	if err != nil {
		return err
	}
	if typ != websocket.MessageText {
		return errors.New("a binary websocket message from the browser")
	}
	if id, sid, result, ok := quickReply(data); ok {
		if t.hand.answered(id) && len(result) >= handOverMin {
			result = holdReply(result)
		}
		*msg = cdproto.Message{ID: id, SessionID: sid, Result: jsonv2.Value(result)}
		return nil
	}
	var e envelope
	if err := jsonv2.Unmarshal(data, &e, chromedp.DefaultUnmarshalOptions); err != nil {
		return err
	}
	if e.ID != 0 {
		t.hand.answered(e.ID) // an error, or a reply of another shape: parsed
	}
	*msg = cdproto.Message{ID: e.ID, SessionID: e.SessionID, Method: e.Method, Params: jsonv2.Value(e.Params), Result: jsonv2.Value(e.Result), Error: e.Error}
	return nil
}

// readExact reads a whole message into a buffer of exactly its size, in
// growing chunks. A 40 MB reply costs 40 MB of chunks and one 40 MB join.
// io.ReadAll's growth would make 200 MB of copies.
func readExact(r io.Reader) ([]byte, error) {
	var chunks [][]byte
	total, size := 0, 4<<10
	for {
		buf := make([]byte, size)
		n, err := io.ReadFull(r, buf)
		total += n
		chunks = append(chunks, buf[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(size*2, 1<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

func (t *transport) Write(ctx context.Context, msg *cdproto.Message) error {
	t.hand.sent(msg)
	b, err := jsonv2.Marshal(msg, chromedp.DefaultMarshalOptions)
	if err != nil {
		return err
	}
	return t.ws.Write(ctx, websocket.MessageText, b)
}

func (t *transport) Close() error {
	return t.ws.Close(websocket.StatusNormalClosure, "")
}

// allocator is a chromedp.Allocator that dials a running browser's
// websocket URL as it is and talks to it through transport.
type allocator struct {
	wsURL string
	wg    sync.WaitGroup
}

func (a *allocator) Allocate(ctx context.Context, opts ...chromedp.BrowserOption) (*chromedp.Browser, error) {
	if chromedp.FromContext(ctx) == nil {
		return nil, chromedp.ErrInvalidContext
	}
	// The dial ends with ctx too. Nothing else waits on ctx until it
	// succeeds. A chromedp.Cancel of a context with no browser would race
	// the context's own cancel for its allocation token. The loser waits
	// for ever; a failed connect then hung.
	dctx, dcancel := context.WithTimeout(context.Background(), dialTimeout)
	stop := context.AfterFunc(ctx, dcancel)
	ws, resp, err := websocket.Dial(dctx, a.wsURL, nil)
	stop()
	dcancel()
	if err != nil {
		if resp != nil && refused(resp.StatusCode) {
			return nil, fmt.Errorf("the endpoint refused the connection (%s): check the token or key in its URL", resp.Status)
		}
		return nil, fmt.Errorf("could not dial %q: %w", Redact(a.wsURL), err)
	}
	// The connection lives until the chromedp context ends and its pages
	// are closed. Only then is the websocket closed.
	wctx, cancel := context.WithCancel(context.Background())
	a.wg.Go(func() {
		<-ctx.Done()
		chromedp.Cancel(ctx)
		cancel()
	})
	// Chrome sends a whole reply as one message: tens of MB on big pages.
	ws.SetReadLimit(-1)
	return chromedp.NewBrowserTransport(wctx, &transport{ws: ws}, opts...)
}

func (a *allocator) Wait() { a.wg.Wait() }
