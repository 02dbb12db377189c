package capture

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// The sink's early decoding is used only when the page's bytes after
// the scrub are the ones it decoded. Some documents are not streamed:
// one that may hold a sensitive field, one fetched in chunks, one too
// big.
func TestSinkUsesOnlyUnchangedBytes(t *testing.T) {
	doc := []byte(`{"root":{"nodeId":1,"backendNodeId":1,"nodeType":9,"nodeName":"#document","localName":"","nodeValue":"","children":[{"nodeId":2,"backendNodeId":2,"nodeType":1,"nodeName":"P","localName":"p","nodeValue":"","attributes":["title","hello"]}]}}`)
	ax := []byte(`{"nodes":[{"nodeId":"1","ignored":false,"role":{"type":"role","value":"paragraph"},"backendDOMNodeId":2}]}`)
	layout := []byte(`{"documents":[{"documentURL":0,"nodes":{"backendNodeId":[1,2]},"layout":{"nodeIndex":[1],"styles":[[]],"bounds":[[0,0,10,10]]}}],"strings":["u"]}`)
	run := func(rt *dom.RawTarget) *sink {
		k := newSink()
		k.axIn(ax) // before the document: it waits for it
		k.documentIn(rt)
		k.layoutIn(layout)
		k.wait()
		return k
	}
	rt := &dom.RawTarget{Document: doc, AXTrees: []json.RawMessage{ax}, Layout: layout}
	e := run(rt).result(rt)
	if e == nil || e.Root == nil || e.AX[2] == nil || e.Layout == nil {
		t.Fatalf("unchanged page: early = %+v, want all three parts", e)
	}
	k := run(rt)
	changed := *rt
	changed.Document = bytes.Replace(doc, []byte("hello"), []byte("•••••"), 1)
	if k.result(&changed) != nil {
		t.Error("a document changed after it was decoded: early decoding used")
	}
	k = run(rt)
	changed = *rt
	changed.Layout = bytes.Replace(layout, []byte(`"u"`), []byte(`"v"`), 1)
	if k.result(&changed) != nil {
		t.Error("a layout changed after it was decoded: early decoding used")
	}
	for name, rt := range map[string]*dom.RawTarget{
		"may hold secrets": {Document: bytes.Replace(doc, []byte("hello"), []byte("password"), 1)},
		"in chunks":        {Document: doc, DocumentParts: []json.RawMessage{[]byte(`{}`)}},
		"too big":          {Document: append(bytes.Repeat([]byte(" "), streamMaxBytes), doc...)},
	} {
		if e := run(rt).result(rt); e != nil {
			t.Errorf("%s: streamed", name)
		}
	}
	var none *sink
	none.documentIn(rt)
	none.axIn(ax)
	if none.result(rt) != nil {
		t.Error("a nil sink has a result")
	}
}

// TestSinkDecodesPartsSideBySide: the layout is decoded while the AX
// tree still is. The AX tree's decoding here waits until the layout is
// in. A sink that decodes one part after another waits out the guard.
func TestSinkDecodesPartsSideBySide(t *testing.T) {
	doc := []byte(`{"root":{"nodeId":1,"backendNodeId":1,"nodeType":9,"nodeName":"#document","localName":"","nodeValue":""}}`)
	ax := []byte(`{"nodes":[{"nodeId":"1","ignored":false,"role":{"type":"role","value":"RootWebArea"},"backendDOMNodeId":1}]}`)
	layout := []byte(`{"documents":[{"documentURL":0,"nodes":{"backendNodeId":[1]},"layout":{"nodeIndex":[],"styles":[],"bounds":[]}}],"strings":["u"]}`)
	k := newSink()
	waited := false
	decodeAXTree = func(data []byte) map[int64]*cdpjson.AXNode {
		deadline := time.Now().Add(10 * time.Second)
		for {
			k.mu.Lock()
			in := k.early.HasLayout
			k.mu.Unlock()
			if in {
				break
			}
			if time.Now().After(deadline) {
				waited = true
				break
			}
			time.Sleep(time.Millisecond)
		}
		return decodeAX(data)
	}
	defer func() { decodeAXTree = decodeAX }()
	rt := &dom.RawTarget{Document: doc, AXTrees: []json.RawMessage{ax}, Layout: layout}
	k.documentIn(rt)
	k.axIn(ax)
	k.layoutIn(layout)
	e := k.result(rt)
	if waited {
		t.Error("the layout was decoded only after the AX tree")
	}
	if e == nil || e.AX[1] == nil || e.Layout == nil {
		t.Fatalf("early = %+v, want the AX tree and the layout", e)
	}
}
