package capture

import (
	"hash/maphash"
	"sync"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// A streamed capture decodes the page's document, main AX tree and
// layout as they arrive. The renderer still works on the next read
// meanwhile. Build would decode them all after the capture. Only the
// last part's decoding is left when the replies are in.
//
// Nothing decoded early reaches a snapshot unless the scrub at the door
// leaves it so. The capture keeps every part's JSON. The scrub runs on
// it as on any capture. A part's early decoding is used only if its bytes
// are the same after the scrub (compared by hash). Some pages are decoded
// again from the scrubbed JSON, like a whole capture:
//   - a page whose document may hold a sensitive field.
//   - a page whose scrub changed anything (a secret copied around, a
//     token in a URL).

// streamMaxBytes bounds the document a sink decodes early. Decoded parts
// and the JSON are held together until the scrub has run. A page above
// this (about 30,000 elements) is decoded after the scrub, part by part.
// So the snapshot of a 50,000-element page keeps its memory bound.
const streamMaxBytes = 12 << 20

// sink decodes the page target's parts for one capture. Its methods may
// be called on a nil sink, which means no streaming.
type sink struct {
	mu      sync.Mutex
	seed    maphash.Seed
	decided bool // the document came: ok says whether to go on
	ok      bool
	pending []part
	wg      sync.WaitGroup
	early   cdpjson.Early
	sums    map[string]uint64 // part name → hash of the bytes decoded
}

// part is a reply waiting to be decoded.
type part struct {
	name string // "document", "ax" or "layout"
	data []byte
}

func newSink() *sink { return &sink{seed: maphash.MakeSeed(), sums: map[string]uint64{}} }

// documentIn hands over the page's document. A tree too deep for one
// reply comes with its chunks. documentIn decides whether to stream at
// all.
func (k *sink) documentIn(rt *dom.RawTarget) {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.decided = true
	k.ok = len(rt.DocumentParts) == 0 && len(rt.Document) > 0 && len(rt.Document) <= streamMaxBytes && !mayHoldSecrets(rt.Document)
	if k.ok {
		k.pending = append([]part{{"document", rt.Document}}, k.pending...)
	} else {
		k.pending = nil
	}
	k.kick()
}

// axIn hands over the main frame's accessibility tree.
func (k *sink) axIn(data []byte) { k.in(part{"ax", data}) }

// layoutIn hands over the DOMSnapshot reply.
func (k *sink) layoutIn(data []byte) { k.in(part{"layout", data}) }

func (k *sink) in(p part) {
	if k == nil || len(p.data) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.decided && !k.ok {
		return
	}
	k.pending = append(k.pending, p)
	k.kick()
}

// kick starts decoding the waiting parts once the document has
// decided. Each part is decoded on its own goroutine: the last to
// arrive need not wait for the one before. k.mu is held.
func (k *sink) kick() {
	if !k.decided || !k.ok {
		return
	}
	for _, p := range k.pending {
		k.wg.Go(func() { k.decode(p) })
	}
	k.pending = nil
}

// decodeAXTree is decodeAX. A test makes it wait for another part.
var decodeAXTree = decodeAX

// decode decodes one part and keeps it with the hash of its bytes.
func (k *sink) decode(p part) {
	sum := maphash.Bytes(k.seed, p.data)
	var e cdpjson.Early
	switch p.name {
	case "document":
		e.Root, e.RootErr = cdpjson.ParseDocument(p.data)
	case "ax":
		e.AX = decodeAXTree(p.data)
	case "layout":
		e.Layout, e.LayoutErr = cdpjson.DecodeDOMSnapshot(p.data)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sums[p.name] = sum
	switch p.name {
	case "document":
		k.early.Root, k.early.RootErr, k.early.HasRoot = e.Root, e.RootErr, true
	case "ax":
		k.early.AX = e.AX
	case "layout":
		k.early.Layout, k.early.LayoutErr, k.early.HasLayout = e.Layout, e.LayoutErr, true
	}
}

// wait waits until every part handed over is decoded.
func (k *sink) wait() {
	if k == nil {
		return
	}
	k.mu.Lock()
	k.decided = true // no document came: nothing more will be decoded
	k.mu.Unlock()
	k.wg.Wait()
}

// result is what was decoded early of the page target rt, once the
// capture is scrubbed. It is nil unless every part decoded is byte for
// byte what the scrub left.
func (k *sink) result(rt *dom.RawTarget) *cdpjson.Early {
	if k == nil {
		return nil
	}
	k.wait()
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.ok || len(k.sums) == 0 {
		return nil
	}
	now := map[string][]byte{"document": rt.Document, "layout": rt.Layout}
	if len(rt.AXTrees) > 0 {
		now["ax"] = rt.AXTrees[0]
	}
	if len(rt.DocumentParts) > 0 {
		return nil
	}
	for name, sum := range k.sums {
		if maphash.Bytes(k.seed, now[name]) != sum {
			return nil
		}
	}
	e := k.early
	k.early = cdpjson.Early{}
	return &e
}
