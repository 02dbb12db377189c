package cdpconn

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/chromedp/cdproto"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/chromedp"
)

// TestHandOver: only the replies to domscope's own large reads are held.
// The token that stands for one decodes as a JSON value. alias takes the
// reply back by it exactly once. A reply nobody took is let go.
func TestHandOver(t *testing.T) {
	var h handOvers
	for id, m := range map[int64]struct {
		method cdproto.MethodType
		params string
		want   bool
	}{
		1: {"DOMSnapshot.captureSnapshot", `{"computedStyles":["display"]}`, true},
		2: {"Accessibility.getFullAXTree", ``, true},
		3: {"DOM.getDocument", `{"depth":-1,"pierce":true}`, true},
		4: {"DOM.getDocument", `{}`, false}, // chromedp's own
		5: {"Runtime.evaluate", `{"expression":"1"}`, false},
	} {
		h.sent(&cdproto.Message{ID: id, Method: m.method, Params: jsonv2.Value(m.params)})
		if got := h.answered(id); got != m.want {
			t.Errorf("%s %s: handed over %v, want %v", m.method, m.params, got, m.want)
		}
		if h.answered(id) {
			t.Errorf("%s: the id was not forgotten", m.method)
		}
	}

	reply := []byte(`{"nodes":[{"nodeId":"1"}]}`)
	token := holdReply(reply)
	var a alias
	if err := jsonv2.Unmarshal(token, &a, chromedp.DefaultUnmarshalOptions); err != nil {
		t.Fatalf("the token %s does not decode: %v", token, err)
	}
	if !bytes.Equal(a, reply) {
		t.Errorf("took back %s, want %s", a, reply)
	}
	if err := jsonv2.Unmarshal(token, &a, chromedp.DefaultUnmarshalOptions); !errors.Is(err, errReplyGone) {
		t.Errorf("a second take: %v, want %v", err, errReplyGone)
	}
	// a reply as Chrome writes it passes through
	var b alias
	if err := jsonv2.Unmarshal(reply, &b, chromedp.DefaultUnmarshalOptions); err != nil || !bytes.Equal(b, reply) {
		t.Errorf("a plain reply: %s, %v", b, err)
	}
	var r json.RawMessage
	if json.Unmarshal(token, &r) != nil {
		t.Errorf("the token is not JSON")
	}

	// a reply whose caller gave up is let go once it is old
	stale := holdReply([]byte(`{"x":1}`))
	replies.Lock()
	for k, r := range replies.held {
		r.at = r.at.Add(-2 * handOverTTL)
		replies.held[k] = r
	}
	replies.Unlock()
	holdReply([]byte(`{}`))
	if _, _, err := takeReply(stale); !errors.Is(err, errReplyGone) {
		t.Errorf("a stale reply is still held: %v", err)
	}
}
