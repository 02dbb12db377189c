package cdpconn

import (
	"bytes"
	"strconv"

	"github.com/chromedp/cdproto/target"
)

// quickReply reads a reply as Chrome writes it,
//
//	{"id":N,"result":{...}}  or  {"id":N,"result":{...},"sessionId":"…"}
//
// without walking the result. On a large page the result is megabytes: a
// layout, an accessibility tree. A full parse of the message only to find
// where the result ends cost as much as decoding it. The result is still
// parsed where it is decoded. It reports false for any other shape
// (events, errors, another key order). The caller parses those in full.
func quickReply(data []byte) (id int64, session target.SessionID, result []byte, ok bool) {
	const head, mid = `{"id":`, `,"result":{`
	if !bytes.HasPrefix(data, []byte(head)) {
		return 0, "", nil, false
	}
	rest := data[len(head):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 18 || !bytes.HasPrefix(rest[n:], []byte(mid)) {
		return 0, "", nil, false
	}
	id, err := strconv.ParseInt(string(rest[:n]), 10, 64)
	if err != nil {
		return 0, "", nil, false
	}
	start := len(head) + n + len(mid) - 1 // at the result's '{'
	end := len(data)
	if end < start+3 || data[end-1] != '}' {
		return 0, "", nil, false
	}
	// A session id closes the message: ,"sessionId":"<letters and digits>"}.
	// The sequence }," cannot occur inside a JSON string: its quote would
	// be escaped. So the last one found is the result's end.
	if data[end-2] == '"' {
		const key = `},"sessionId":"`
		k := bytes.LastIndex(data[start:], []byte(key))
		if k < 0 {
			return 0, "", nil, false
		}
		k += start
		if k+len(key) > end-2 {
			return 0, "", nil, false
		}
		sid := data[k+len(key) : end-2]
		for _, c := range sid {
			if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
				return 0, "", nil, false
			}
		}
		return id, target.SessionID(sid), data[start : k+1], true
	}
	// No session: the message ends with the result's '}' and its own.
	if data[end-2] != '}' {
		return 0, "", nil, false
	}
	return id, "", data[start : end-1], true
}
