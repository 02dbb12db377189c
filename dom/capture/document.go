package capture

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// deepChunk is how many DOM levels one reply carries when a tree is too
// deep for DOM.getDocument{depth:-1}. Chrome converts replies from CBOR
// to JSON with a nesting limit of about 300. That is about 140 elements
// deep. 60 leaves room for shadow roots and frame documents on the way.
const deepChunk = 60

// fetchDocument gets the whole pierced DOM of a target into rt.Document.
// A tree too deep for that is fetched in chunks (rt.DocumentParts).
func fetchDocument(ctx context.Context, s dom.Session, rt *dom.RawTarget) error {
	err := s.Call(ctx, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true}, &rt.Document)
	if err == nil {
		return nil
	}
	if !isStackLimit(err) {
		return err
	}
	rt.Document = nil
	return fetchDeepDocument(ctx, s, rt)
}

func isStackLimit(err error) bool {
	return err != nil && strings.Contains(err.Error(), "stack limit exceeded")
}

// capChildNodes is the DOM.setChildNodes event.
type capChildNodes struct {
	ParentID int64           `json:"parentId"`
	Nodes    []*cdpjson.Node `json:"nodes"`
}

// fetchDeepDocument fetches the tree deepChunk levels at a time. It gets
// the document first. Then it calls DOM.requestChildNodes on every node
// cut off by the depth limit, until none is cut off. The children arrive
// as DOM.setChildNodes events. Each event is kept as it came in
// rt.DocumentParts.
func fetchDeepDocument(ctx context.Context, s dom.Session, rt *dom.RawTarget) error {
	events, stop := s.Subscribe("DOM.setChildNodes")
	defer stop()
	var doc struct {
		Root *cdpjson.Node `json:"root"`
	}
	depth := deepChunk
	for {
		err := s.Call(ctx, "DOM.getDocument", map[string]any{"depth": depth, "pierce": true}, &rt.Document)
		if err == nil {
			break
		}
		if !isStackLimit(err) || depth <= 4 {
			return err
		}
		depth /= 2
	}
	if err := json.Unmarshal(rt.Document, &doc); err != nil || doc.Root == nil {
		return dom.Errorf(dom.SnapshotFailed, err, "DOM.getDocument: unreadable reply")
	}
	var pending []int64
	collect := func(roots []*cdpjson.Node) {
		for _, r := range roots {
			r.Each(func(n *cdpjson.Node) {
				if n.Cut() {
					pending = append(pending, n.NodeID)
				}
			})
		}
	}
	collect([]*cdpjson.Node{doc.Root})
	const maxParts = 1 << 20 // a bound against a page that grows as we read it
	for len(pending) > 0 {
		if len(rt.DocumentParts) > maxParts {
			return dom.Errorf(dom.SnapshotFailed, nil, "the document is too large to fetch (over %d deep chunks)", maxParts)
		}
		wave := pending
		pending = nil
		want := map[int64]bool{}
		for _, id := range wave {
			want[id] = true
			if err := s.Call(ctx, "DOM.requestChildNodes", map[string]any{"nodeId": id, "depth": depth, "pierce": true}, nil); err != nil {
				// A node removed meanwhile has nothing left to fetch.
				delete(want, id)
			}
		}
		// The events come before the replies, so they are queued by now.
		// The timer only guards against an event Chrome could not send.
		timer := time.NewTimer(10 * time.Second)
		for len(want) > 0 {
			select {
			case raw, ok := <-events:
				if !ok {
					timer.Stop()
					return dom.Errorf(dom.NotAttached, nil, "the page went away while fetching a deep document")
				}
				var ev capChildNodes
				if err := json.Unmarshal(raw, &ev); err != nil || !want[ev.ParentID] {
					continue
				}
				delete(want, ev.ParentID)
				rt.DocumentParts = append(rt.DocumentParts, raw)
				collect(ev.Nodes)
			case <-timer.C:
				return dom.Errorf(dom.SnapshotFailed, nil, "fetching a deep document: no children came for %d nodes", len(want))
			case <-ctx.Done():
				timer.Stop()
				return dom.Errorf(dom.Timeout, ctx.Err(), "fetching a deep document (%d chunks so far)", len(rt.DocumentParts))
			}
		}
		timer.Stop()
	}
	return nil
}
