package cdpconn

import (
	"encoding/json"
	"strings"

	"domscope/dom"
)

// isTab reports whether a target is a tab a user would pick: a page,
// but not a DevTools window.
func isTab(typ, url string) bool {
	return typ == "page" && !strings.HasPrefix(url, "devtools://")
}

// inside reports whether the iframe target id sits in page, directly or
// through other iframe targets. parent maps an iframe target to its
// parent target.
func inside(parent map[string]string, page, id string) bool {
	for i := 0; i < 64 && id != ""; i++ { // 64 bounds a parent cycle
		pid, ok := parent[id]
		if !ok {
			return false
		}
		if pid == page {
			return true
		}
		id = pid
	}
	return false
}

// decodeResult puts a reply's result into result: kept raw for a
// *json.RawMessage, decoded for anything else, nothing for nil.
func decodeResult(method string, raw []byte, result any) error {
	switch r := result.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = json.RawMessage(raw)
		return nil
	default:
		if err := json.Unmarshal(raw, result); err != nil {
			return dom.Errorf(dom.CDPError, err, "%s: cannot decode the reply", method)
		}
		return nil
	}
}
