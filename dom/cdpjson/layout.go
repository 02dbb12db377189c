package cdpjson

import (
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"domscope/dom"
)

// RareInts is one of DOMSnapshot's sparse columns. A boolean column has
// only Index.
type RareInts struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

// SnapDocument is one document of a DOMSnapshot, as far as Build reads it.
type SnapDocument struct {
	DocumentURL   int     `json:"documentURL"`
	FrameID       int     `json:"frameId"`
	ScrollOffsetX float64 `json:"scrollOffsetX"`
	ScrollOffsetY float64 `json:"scrollOffsetY"`
	Nodes         struct {
		BackendNodeID []int64 `json:"backendNodeId"`
		// ParentIndex is in every DOMSnapshot reply. Its presence says the
		// reply lists every node of the document, laid out or not.
		ParentIndex          []int    `json:"parentIndex,omitempty"`
		ContentDocumentIndex RareInts `json:"contentDocumentIndex"`
		InputValue           RareInts `json:"inputValue"`
		TextValue            RareInts `json:"textValue"`
		OptionSelected       RareInts `json:"optionSelected"`
		InputChecked         RareInts `json:"inputChecked"`
	} `json:"nodes"`
	Layout struct {
		NodeIndex []int       `json:"nodeIndex"`
		Styles    [][]int     `json:"styles"`
		Bounds    [][]float64 `json:"bounds"`
	} `json:"layout"`
}

// DOMSnapshot is a DOMSnapshot.captureSnapshot result, as far as Build
// reads it.
type DOMSnapshot struct {
	Documents []SnapDocument `json:"documents"`
	Strings   []string       `json:"strings"`
}

// DecodeDOMSnapshot reads a DOMSnapshot.captureSnapshot result, keeping
// only what Build reads. It scans the bytes (see scanner). It carves the
// per-node rows of styles and bounds out of shared slabs. A 50,000-node
// page has 100,000 such rows; one allocation each dominated the build.
func DecodeDOMSnapshot(data []byte) (*DOMSnapshot, error) {
	strs, docs, err := decodeSnapshotReply(data, decodeSnapDocument)
	return &DOMSnapshot{Documents: docs, Strings: strs}, err
}

func decodeSnapDocument(s *scanner, d *SnapDocument) error {
	return walkSnapDocument(s, docFields{
		top: func(key string) (bool, error) {
			switch key {
			case "documentURL":
				return true, s.int(&d.DocumentURL)
			case "frameId":
				return true, s.int(&d.FrameID)
			case "scrollOffsetX":
				return true, s.float(&d.ScrollOffsetX)
			case "scrollOffsetY":
				return true, s.float(&d.ScrollOffsetY)
			}
			return false, nil
		},
		nodes: func(key string) (bool, error) {
			switch key {
			case "backendNodeId":
				var ids []int
				err := s.ints(&ids)
				d.Nodes.BackendNodeID = make([]int64, len(ids))
				for i, v := range ids {
					d.Nodes.BackendNodeID[i] = int64(v)
				}
				return true, err
			case "parentIndex":
				return true, s.ints(&d.Nodes.ParentIndex)
			case "contentDocumentIndex":
				return true, readRare(s, &d.Nodes.ContentDocumentIndex)
			case "inputValue":
				return true, readRare(s, &d.Nodes.InputValue)
			case "textValue":
				return true, readRare(s, &d.Nodes.TextValue)
			case "optionSelected":
				return true, readRare(s, &d.Nodes.OptionSelected)
			case "inputChecked":
				return true, readRare(s, &d.Nodes.InputChecked)
			}
			return false, nil
		},
		layout: func(key string) (bool, error) {
			switch key {
			case "nodeIndex":
				return true, s.ints(&d.Layout.NodeIndex)
			case "styles":
				// rows point into one slab, sized by nodeIndex (it comes
				// first). If it grows, earlier rows keep their old backing.
				slab := make([]int, 0, len(d.Layout.NodeIndex)*len(dom.LayoutStyles))
				d.Layout.Styles = make([][]int, 0, len(d.Layout.NodeIndex))
				return true, s.array(func() error {
					start := len(slab)
					err := s.ints(&slab)
					d.Layout.Styles = append(d.Layout.Styles, slab[start:len(slab):len(slab)])
					return err
				})
			case "bounds":
				return true, readRows(s, &d.Layout.Bounds, len(d.Layout.NodeIndex)*4, len(d.Layout.NodeIndex))
			}
			return false, nil
		},
	})
}

// readRows reads an array of number arrays into rows carved from one
// slab. The capacities are hints: slab size, row count.
func readRows(s *scanner, rows *[][]float64, slabCap, rowCap int) error {
	slab := make([]float64, 0, slabCap)
	*rows = make([][]float64, 0, rowCap)
	return s.array(func() error {
		start := len(slab)
		err := s.floats(&slab)
		*rows = append(*rows, slab[start:len(slab):len(slab)])
		return err
	})
}

// readRare reads one of DOMSnapshot's sparse columns ({index, value}). A
// boolean column has only index.
func readRare(s *scanner, r *RareInts) error {
	return s.object(func(key string) error {
		switch key {
		case "index":
			return s.ints(&r.Index)
		case "value":
			return s.ints(&r.Value)
		}
		return s.skip()
	})
}

// readObject calls f for each key of the object that comes next. f must
// consume the value. A non-object is skipped.
func readObject(dec *jsontext.Decoder, f func(key string) error) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for {
		switch dec.PeekKind() {
		case '}':
			_, err := dec.ReadToken()
			return err
		case 0:
			_, err := dec.ReadToken()
			if err == nil {
				err = errors.New("layout: truncated")
			}
			return err
		}
		// names are read raw and looked up, not unquoted. An allocation
		// per key was most of the decoding garbage.
		k, err := dec.ReadValue()
		if err != nil {
			return err
		}
		key := ""
		if len(k) >= 2 {
			key = knownKeys[string(k[1:len(k)-1])]
		}
		if err := f(key); err != nil {
			return err
		}
	}
}

// knownKeys are the object keys the stream decoders read. Any other key
// reaches them as "" and is skipped.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"strings", "documents", "documentURL", "frameId", "scrollOffsetX",
		"scrollOffsetY", "nodes", "backendNodeId", "contentDocumentIndex", "index", "value", "layout",
		"nodeIndex", "styles", "bounds", "inputValue", "textValue", "optionSelected", "inputChecked", "ignored", "backendDOMNodeId", "role", "name", "properties",
		"parentIndex", "nodeType", "nodeName", "attributes"} {
		m[k] = k
	}
	return m
}()

// readArray calls f for each element of the array that comes next. f must
// consume it. A non-array is skipped.
func readArray(dec *jsontext.Decoder, f func() error) error {
	if dec.PeekKind() != '[' {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for {
		switch dec.PeekKind() {
		case ']':
			_, err := dec.ReadToken()
			return err
		case 0:
			_, err := dec.ReadToken()
			if err == nil {
				err = errors.New("layout: truncated")
			}
			return err
		}
		if err := f(); err != nil {
			return err
		}
	}
}
