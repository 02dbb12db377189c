package dom

import (
	"bytes"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
)

// parseDocumentStream decodes a DOM.getDocument result ({"root": Node} or
// a bare Node) with a token stream and an explicit stack (no recursion,
// no reflection, keys looked up without allocating). jsontext, like
// encoding/json, stops at 10,000 levels of nesting; parseDocument then
// falls back to parseDocumentDeep.
func parseDocumentStream(data []byte) (*cdpNode, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if dec.PeekKind() != '{' {
		return nil, errors.New("document: not a JSON object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	holder := &cdpNode{}
	// tag names, attribute names and frame ids repeat on every node: one
	// string each instead of one per node
	in := &axDecoder{dec: dec, intern: map[string]string{}}
	type frame struct {
		node *cdpNode
		list *[]*cdpNode // non-nil: inside an array of nodes
	}
	stack := []frame{{node: holder}}
	sawRoot := false
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if top.list != nil {
			switch dec.PeekKind() {
			case ']':
				if _, err := dec.ReadToken(); err != nil {
					return nil, err
				}
				stack = stack[:len(stack)-1]
			case '{':
				if _, err := dec.ReadToken(); err != nil {
					return nil, err
				}
				n := &cdpNode{}
				*top.list = append(*top.list, n)
				stack = append(stack, frame{node: n})
			case 0:
				_, err := dec.ReadToken()
				return nil, orTruncated(err)
			default:
				if err := dec.SkipValue(); err != nil {
					return nil, err
				}
			}
			continue
		}
		switch dec.PeekKind() {
		case '}':
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			stack = stack[:len(stack)-1]
			continue
		case 0:
			_, err := dec.ReadToken()
			return nil, orTruncated(err)
		}
		k, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		key := ""
		if len(k) >= 2 {
			key = documentKeys[string(k[1:len(k)-1])]
		}
		n := top.node
		switch key {
		case "children", "shadowRoots":
			if dec.PeekKind() != '[' {
				if err := dec.SkipValue(); err != nil {
					return nil, err
				}
				continue
			}
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			l := &n.Children
			if key == "shadowRoots" {
				l = &n.ShadowRoots
			}
			stack = append(stack, frame{list: l})
		case "root", "contentDocument", "templateContent":
			if dec.PeekKind() != '{' {
				if err := dec.SkipValue(); err != nil {
					return nil, err
				}
				continue
			}
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			c := &cdpNode{}
			switch {
			case key == "root" && n == holder:
				sawRoot = true
				n.ContentDocument = c
			case key == "templateContent":
				n.TemplateContent = c
			default:
				n.ContentDocument = c
			}
			stack = append(stack, frame{node: c})
		case "attributes":
			err := readArray(dec, func() error {
				v, err := dec.ReadValue()
				if err == nil && v.Kind() == '"' {
					// names (even places) are few, values are many
					n.Attributes = append(n.Attributes, in.text(v, len(n.Attributes)%2 == 0))
				}
				return err
			})
			if err != nil {
				return nil, err
			}
		case "nodeId", "backendNodeId", "nodeType":
			t, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			if t.Kind() == '0' {
				switch key {
				case "nodeId":
					n.NodeID = t.Int()
				case "backendNodeId":
					n.BackendNodeID = t.Int()
				default:
					n.NodeType = int(t.Int())
				}
			}
		case "nodeName", "localName", "nodeValue", "frameId", "shadowRootType", "documentURL":
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			if raw.Kind() != '"' {
				continue
			}
			v := in.text(raw, key != "nodeValue" && key != "documentURL")
			switch key {
			case "nodeName":
				n.NodeName = v
			case "localName":
				n.LocalName = v
			case "nodeValue":
				n.NodeValue = v
			case "frameId":
				n.FrameID = v
			case "shadowRootType":
				n.ShadowRootType = v
			default:
				n.DocumentURL = v
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return nil, err
			}
		}
	}
	if sawRoot {
		return holder.ContentDocument, nil
	}
	return holder, nil
}

func orTruncated(err error) error {
	if err == nil {
		return errors.New("document: truncated")
	}
	return err
}

// documentKeys are the DOM.Node keys the stream decoder reads.
var documentKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"root", "children", "shadowRoots", "contentDocument", "templateContent",
		"attributes", "nodeId", "backendNodeId", "nodeType", "nodeName", "localName", "nodeValue",
		"frameId", "shadowRootType", "documentURL"} {
		m[k] = k
	}
	return m
}()
