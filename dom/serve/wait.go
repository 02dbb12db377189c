package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/urls"
)

// urlWaitArgs are the agent CLI's wait arguments the MCP tool lacks.
type urlWaitArgs struct {
	URL     string `json:"url"`
	Timeout int    `json:"timeout"`
}

// waitURL answers `wait --url PART`: it waits until the tab's address
// holds PART (case-insensitive), up to the wait's timeout (5 s).
func (f *front) waitURL(ctx context.Context, args urlWaitArgs) Answer {
	bound := 5 * time.Second
	if args.Timeout > 0 {
		bound = min(time.Duration(args.Timeout)*time.Millisecond, time.Minute)
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	start := time.Now()
	want := strings.ToLower(args.URL)
	for {
		var r struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err := f.tab.page.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.href", "returnByValue": true}, &r)
		if err == nil && strings.Contains(strings.ToLower(r.Result.Value), want) {
			return Answer{Text: fmt.Sprintf("wait: ok, %d ms\nurl: %s\n", time.Since(start).Milliseconds(), urls.Safe(r.Result.Value))}
		}
		select {
		case <-ctx.Done():
			e := dom.Errorf(dom.Timeout, nil, "the address did not come to hold the text in %s", bound)
			return Answer{Error: true, Code: e.Code, Text: fmt.Sprintf("%s: %s\nretryable: yes\nnext: wait longer (--timeout), or snapshot to see where the page is\nurl: %s\n", e.Code, e.Message, urls.Safe(r.Result.Value))}
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// urlWait is the url wait req asks for, if it is one.
func urlWait(req Request) (urlWaitArgs, bool) {
	var a urlWaitArgs
	if req.Tool != "dom_wait" || json.Unmarshal(req.Args, &a) != nil || a.URL == "" {
		return a, false
	}
	return a, true
}
