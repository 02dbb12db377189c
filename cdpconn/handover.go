package cdpconn

import (
	"bytes"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
)

// Large replies are handed to the caller unparsed. chromedp decodes every
// reply's result into the caller's value. Even a raw slice (alias) walks
// the whole result to find its end. That costs 6 ms for the 2.7 MB layout
// of a Wikipedia article. A 10 MB accessibility tree costs about 25 ms.
// Both are on the path of every snapshot. So the transport puts a short
// token in the message in their place. alias takes the reply back by it.
// Only the replies to commands that session.Call sends for a raw result
// go this way (see handOverMethods), never chromedp's own.

// handOverMethods are the commands whose large replies are handed over.
// They are those domscope reads with its own decoders. DOM.getDocument
// counts only as domscope asks for it, piercing frames and shadow roots.
// chromedp asks for the root alone and decodes the reply itself.
var handOverMethods = map[cdproto.MethodType]func(params []byte) bool{
	"DOMSnapshot.captureSnapshot":    func([]byte) bool { return true },
	"Accessibility.getFullAXTree":    func([]byte) bool { return true },
	"Accessibility.getPartialAXTree": func([]byte) bool { return true },
	"DOM.getDocument":                func(p []byte) bool { return bytes.Contains(p, []byte(`"pierce":true`)) },
}

// handOverMin is the smallest reply handed over. Below it the parse costs
// less than the bookkeeping.
const handOverMin = 64 << 10

// handOverTTL is how long a reply waits for its caller. A caller may give
// up first, when its context ends. Its reply is let go after handOverTTL.
const handOverTTL = 30 * time.Second

// tokenPrefix starts the token that stands for a handed-over reply.
const tokenPrefix = `{"domscope.reply":`

type heldReply struct {
	data []byte
	at   time.Time
}

// replies holds the handed-over replies until their callers take them.
var replies = struct {
	sync.Mutex
	next uint64
	held map[uint64]heldReply
}{held: map[uint64]heldReply{}}

// holdReply keeps data and returns the token that stands for it.
func holdReply(data []byte) []byte {
	now := time.Now()
	replies.Lock()
	defer replies.Unlock()
	for k, r := range replies.held {
		if now.Sub(r.at) > handOverTTL {
			delete(replies.held, k)
		}
	}
	replies.next++
	replies.held[replies.next] = heldReply{data, now}
	return append(strconv.AppendUint([]byte(tokenPrefix), replies.next, 10), '}')
}

// errReplyGone is a token whose reply is no longer held.
var errReplyGone = errors.New("the reply was let go before it was read")

// takeReply returns the reply a token stands for. ok is false when b is
// not a token.
func takeReply(b []byte) (data []byte, ok bool, err error) {
	rest, ok := bytes.CutPrefix(b, []byte(tokenPrefix))
	if !ok {
		return nil, false, nil
	}
	k, err := strconv.ParseUint(string(bytes.TrimSuffix(rest, []byte("}"))), 10, 64)
	if err != nil {
		return nil, true, err
	}
	replies.Lock()
	defer replies.Unlock()
	r, held := replies.held[k]
	if !held {
		return nil, true, errReplyGone
	}
	delete(replies.held, k)
	return r.data, true, nil
}

// handOvers are the ids of commands sent whose replies are handed over.
type handOvers struct {
	mu  sync.Mutex
	ids map[int64]bool
}

// sent notes a command on its way out.
func (h *handOvers) sent(msg *cdproto.Message) {
	if f := handOverMethods[msg.Method]; f == nil || !f(msg.Params) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ids == nil {
		h.ids = map[int64]bool{}
	}
	h.ids[msg.ID] = true
}

// answered reports whether the reply to command id is to be handed over.
// It forgets the id.
func (h *handOvers) answered(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.ids[id] {
		return false
	}
	delete(h.ids, id)
	return true
}
