package cdpconn_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// TestMarkFollowsEvents: a mark goes behind the events the browser sent
// before the last reply, and only to the streams that asked for marks.
func TestMarkFollowsEvents(t *testing.T) {
	p := cdptest.Page(t, "data:text/html,<p id=p>one</p>")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	marked, stop := p.SubscribeOrdered("DOM.characterDataModified", "DOM.childNodeInserted", "DOM.childNodeRemoved", "DOM.childNodeCountUpdated", "DOM.setChildNodes", dom.MarkEvent)
	defer stop()
	plain, stopPlain := p.SubscribeOrdered("DOM.childNodeRemoved", "DOM.childNodeInserted", "DOM.childNodeCountUpdated")
	defer stopPlain()
	// The nodes must be the loaded document's, or no event names them.
	for {
		var r struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `document.readyState === "complete" && !!document.getElementById("p")`, "returnByValue": true}, &r); err != nil {
			t.Fatal(err)
		}
		if r.Result.Value {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := p.Call(ctx, "DOM.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Call(ctx, "DOM.getDocument", map[string]any{"depth": -1}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		// Each change sends events before the reply to its evaluate.
		expr := `document.getElementById("p").replaceChildren(document.createTextNode("v` + strconv.Itoa(i) + `"))`
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr}, nil); err != nil {
			t.Fatal(err)
		}
		n := p.MarkOrdered()
		events := 0
		for done := false; !done; {
			select {
			case ev := <-marked:
				if ev.Method != dom.MarkEvent {
					events++
					continue
				}
				if string(ev.Params) != strconv.FormatInt(n, 10) {
					t.Fatalf("change %d: mark %s, want %d", i, ev.Params, n)
				}
				done = true
			case <-ctx.Done():
				t.Fatalf("change %d: no mark", i)
			}
		}
		if events == 0 {
			t.Errorf("change %d: the mark came before the change's events", i)
		}
	}
	// The other stream had the same events, and no mark.
	for {
		select {
		case ev := <-plain:
			if ev.Method == dom.MarkEvent {
				t.Fatalf("a stream that did not ask for marks got one")
			}
		case <-time.After(200 * time.Millisecond):
			return
		}
	}
}
