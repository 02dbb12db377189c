package capture

import (
	"bytes"
	"runtime"
	"sync"

	"domscope/dom/cdpjson"
)

// An AX tree is the largest reply of a capture (10 MB on wikipedia-2)
// and often the last to arrive. Its decoding was then the longest wait
// after the reads. So it is cut into pieces decoded side by side. The
// cuts fall between two nodes of its "nodes" array. Each piece is made
// a whole reply again and decoded as one. The maps are merged in order,
// the first node of an id winning, as one decoding does.

// axSplitMin is the size below which an AX tree is decoded whole: the
// pieces' copies and merge cost more than they save.
const axSplitMin = 1 << 20

var (
	axPrefix = []byte(`{"nodes":[`)
	axSuffix = []byte(`]}`)
	// axCut is where one node ends and the next begins. Only an AXNode
	// has a "nodeId", and Chrome writes it first. In a string the
	// quotes would be escaped. So it is found nowhere else.
	axCut = []byte(`},{"nodeId":"`)
)

// decodeAX decodes an Accessibility.getFullAXTree result as
// cdpjson.DecodeAXTree does, in up to GOMAXPROCS pieces side by side.
// Any piece that fails to decode sends it back to one decoding.
func decodeAX(data []byte) map[int64]*cdpjson.AXNode {
	return decodeAXPieces(data, splitAX(data, runtime.GOMAXPROCS(0), axSplitMin))
}

// decodeAXPieces decodes data, cut into pieces (nil: whole).
func decodeAXPieces(data []byte, pieces [][]byte) map[int64]*cdpjson.AXNode {
	if len(pieces) < 2 {
		m := map[int64]*cdpjson.AXNode{}
		// a tree that does not decode is skipped, as DecodeTarget does
		_ = cdpjson.DecodeAXTree(data, m)
		return m
	}
	maps := make([]map[int64]*cdpjson.AXNode, len(pieces))
	errs := make([]error, len(pieces))
	var wg sync.WaitGroup
	for i, p := range pieces {
		wg.Go(func() {
			maps[i] = map[int64]*cdpjson.AXNode{}
			errs[i] = cdpjson.DecodeAXTree(p, maps[i])
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			m := map[int64]*cdpjson.AXNode{}
			_ = cdpjson.DecodeAXTree(data, m)
			return m
		}
	}
	m := maps[0]
	for _, more := range maps[1:] {
		for id, n := range more {
			if _, dup := m[id]; !dup {
				m[id] = n
			}
		}
	}
	return m
}

// splitAX cuts an AX tree reply into at most n whole replies of about
// the same size, between nodes. It returns nil if the reply is below
// minSize or not of the shape it knows.
func splitAX(data []byte, n, minSize int) [][]byte {
	if n < 2 || len(data) < minSize || !bytes.HasPrefix(data, axPrefix) || !bytes.HasSuffix(data, axSuffix) {
		return nil
	}
	body := data[len(axPrefix) : len(data)-len(axSuffix)]
	var pieces [][]byte
	start := 0
	for i := 1; i < n; i++ {
		from := max(start, len(body)*i/n)
		c := bytes.Index(body[from:], axCut)
		if c < 0 {
			break
		}
		end := from + c + 1 // the node's closing brace
		pieces = append(pieces, wrapAX(body[start:end]))
		start = end + 1 // past the comma
	}
	if len(pieces) == 0 {
		return nil
	}
	return append(pieces, wrapAX(body[start:]))
}

// wrapAX makes nodes, a run of AX nodes, a reply of its own.
func wrapAX(nodes []byte) []byte {
	b := make([]byte, 0, len(axPrefix)+len(nodes)+len(axSuffix))
	b = append(b, axPrefix...)
	b = append(b, nodes...)
	return append(b, axSuffix...)
}
