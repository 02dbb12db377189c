package dom

import (
	"bytes"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeAXTree reads an Accessibility.getFullAXTree result into m (by
// backend node id; the first node of an id wins). It streams tokens and
// skips what Build does not read (name sources, child ids, chrome roles):
// AX trees are the largest part of a capture, several MB on a big page.
func decodeAXTree(data []byte, m map[int64]*axNode) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if err := expectKind(dec, '{'); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if k.String() != "nodes" || dec.PeekKind() != '[' {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		for dec.PeekKind() != ']' {
			if dec.PeekKind() != '{' {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				continue
			}
			n := &axNode{}
			if err := decodeAXNode(dec, n); err != nil {
				return err
			}
			if n.BackendID != 0 {
				if _, dup := m[n.BackendID]; !dup {
					m[n.BackendID] = n
				}
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

func expectKind(dec *jsontext.Decoder, k jsontext.Kind) error {
	t, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if t.Kind() != k {
		return errors.New("ax tree: unexpected JSON")
	}
	return nil
}

func decodeAXNode(dec *jsontext.Decoder, n *axNode) error {
	if err := expectKind(dec, '{'); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return err
		}
		key := k.String()
		switch key {
		case "ignored":
			t, err := dec.ReadToken()
			if err != nil {
				return err
			}
			n.Ignored = t.Kind() == 't'
		case "backendDOMNodeId":
			t, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if t.Kind() == '0' {
				n.BackendID = t.Int()
			}
		case "role", "name", "value":
			v, err := decodeAXValue(dec)
			if err != nil {
				return err
			}
			switch key {
			case "role":
				n.Role = v
			case "name":
				n.Name = v
			default:
				n.Value = v
			}
		case "properties":
			if dec.PeekKind() != '[' {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				continue
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			for dec.PeekKind() != ']' {
				p, err := decodeAXProperty(dec)
				if err != nil {
					return err
				}
				if p.Name != "" {
					n.Properties = append(n.Properties, p)
				}
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return err
			}
		}
	}
	_, err := dec.ReadToken()
	return err
}

func decodeAXProperty(dec *jsontext.Decoder) (axProperty, error) {
	var p axProperty
	if dec.PeekKind() != '{' {
		return p, dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return p, err
	}
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return p, err
		}
		switch k.String() {
		case "name":
			t, err := dec.ReadToken()
			if err != nil {
				return p, err
			}
			if t.Kind() == '"' {
				p.Name = t.String()
			}
		case "value":
			v, err := decodeAXValue(dec)
			if err != nil {
				return p, err
			}
			if v != nil {
				p.Value = *v
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return p, err
			}
		}
	}
	_, err := dec.ReadToken()
	return p, err
}

// decodeAXValue reads an AXValue object, keeping its "value" raw.
func decodeAXValue(dec *jsontext.Decoder) (*axValue, error) {
	if dec.PeekKind() != '{' {
		return nil, dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	v := &axValue{}
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		if k.String() == "value" { // k is read before the next call voids it
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			v.Value = raw.Clone()
			continue
		}
		if err := dec.SkipValue(); err != nil {
			return nil, err
		}
	}
	_, err := dec.ReadToken()
	return v, err
}
