package cdpconn

import (
	"bytes"
	"strings"
	"testing"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/chromedp"
	"github.com/go-json-experiment/json/jsontext"
)

// fullReply parses a message the slow, complete way (the envelope).
func fullReply(data []byte) (envelope, error) {
	var e envelope
	err := jsonv2.Unmarshal(data, &e, chromedp.DefaultUnmarshalOptions)
	return e, err
}

// checkQuick fails when quickReply reads a message other than the full
// parse does. It reports whether quickReply took it.
func checkQuick(t *testing.T, msg string) bool {
	t.Helper()
	id, sid, result, ok := quickReply([]byte(msg))
	if !ok {
		return false
	}
	if !jsontext.Value(result).IsValid() {
		return true // the result is checked where it is decoded
	}
	e, err := fullReply([]byte(msg))
	if err != nil {
		t.Fatalf("quickReply took %q, which does not parse: %v", msg, err)
	}
	if e.ID != id || e.SessionID != sid || !bytes.Equal(e.Result, result) || e.Error != nil || e.Method != "" || e.Params != nil {
		t.Fatalf("%q: quickReply read id %d session %q result %s; the envelope reads id %d session %q result %s", msg, id, sid, result, e.ID, e.SessionID, e.Result)
	}
	return true
}

// Replies as Chrome writes them take the quick path and read as the full
// parse reads them. Every other shape is left to the full parse.
func TestQuickReplyReadsAsTheEnvelope(t *testing.T) {
	quick := []string{
		`{"id":1,"result":{}}`,
		`{"id":42,"result":{"a":"x"},"sessionId":"0A1B2C"}`,
		`{"id":7,"result":{"sessionId":"INNER"}}`,
		`{"id":7,"result":{"sessionId":"INNER"},"sessionId":"OUTER"}`,
		`{"id":8,"result":{"s":"},\"sessionId\":\"X\"}"},"sessionId":"S1"}`,
		`{"id":9,"result":{"nodes":[{"a":{}},{"b":"}}"}]}}`,
		`{"id":10,"result":{"x":{"y":{}},"sessionId":"Q"},"sessionId":"S"}`,
	}
	for _, m := range quick {
		if !checkQuick(t, m) {
			t.Errorf("%s: not taken by the quick path", m)
		}
	}
	slow := []string{
		`{"id":1,"error":{"code":-32000,"message":"x"},"sessionId":"S"}`,
		`{"method":"DOM.attributeModified","params":{"nodeId":1},"sessionId":"S"}`,
		`{"result":{},"id":1}`,
		`{"id":1,"result":{},"sessionId":"S","extra":1}`,
		`{"id":1,"result":{},"sessionId":"a b"}`,
		`{"id":1,"result":[]}`,
		`{"id":-1,"result":{}}`,
		`{"id":1,"result":{}`,
		`{"id":1,"result":{}} `,
		`{"id":12345678901234567890,"result":{}}`,
	}
	for _, m := range slow {
		if checkQuick(t, m) {
			t.Errorf("%s: taken by the quick path", m)
		}
	}
}

func FuzzQuickReply(f *testing.F) {
	for _, m := range []string{`{"id":1,"result":{}}`, `{"id":2,"result":{"a":"}"},"sessionId":"S"}`, `{"id":3,"result":{"b":[]}},"sessionId":"S"}`} {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if strings.Contains(msg, "\x00") {
			return
		}
		checkQuick(t, msg)
	})
}
