package cdpjson

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// AXProperty is one AX property with its value as text ("true", "2", "mixed").
type AXProperty struct {
	Name  string
	Value string
}

// AXNode is the part of an Accessibility.AXNode that Build reads. Values
// are kept as text. Strings are unquoted; booleans, numbers and tokens
// stay as written. HasName tells an empty name from none.
type AXNode struct {
	Ignored    bool
	Role       string
	Name       string
	HasName    bool
	Value      string
	Properties []AXProperty
	BackendID  int64
}

// DecodeAXTree reads an Accessibility.getFullAXTree result into m, by
// backend node id. The first node of an id wins. AX trees are the largest
// part of a capture, several MB on a big page. So it streams tokens and
// skips what Build does not read: name sources, child ids, chrome roles.
func DecodeAXTree(data []byte, m map[int64]*AXNode) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	ad := &axDecoder{dec: dec, intern: map[string]string{}}
	return readObject(dec, func(key string) error {
		if key != "nodes" {
			return dec.SkipValue()
		}
		return readArray(dec, func() error {
			n := &AXNode{}
			if err := ad.node(n); err != nil {
				return err
			}
			if n.BackendID != 0 {
				if _, dup := m[n.BackendID]; !dup {
					m[n.BackendID] = n
				}
			}
			return nil
		})
	})
}

// axDecoder reads AX nodes. intern shares the strings that repeat across
// nodes (roles, property names, "true"). That saves most allocations.
type axDecoder struct {
	dec    *jsontext.Decoder
	intern map[string]string
	buf    []byte
}

func (a *axDecoder) node(n *AXNode) error {
	dec := a.dec
	return readObject(dec, func(key string) error {
		switch key {
		case "ignored":
			t, err := dec.ReadToken()
			n.Ignored = err == nil && t.Kind() == 't'
			return err
		case "backendDOMNodeId":
			t, err := dec.ReadToken()
			if err == nil && t.Kind() == '0' {
				n.BackendID = t.Int()
			}
			return err
		case "role":
			v, _, err := a.value(true)
			n.Role = v
			return err
		case "name":
			v, ok, err := a.value(false)
			n.Name, n.HasName = v, ok
			return err
		case "value":
			v, _, err := a.value(false)
			n.Value = v
			return err
		case "properties":
			return readArray(dec, func() error {
				var p AXProperty
				err := readObject(dec, func(key string) error {
					switch key {
					case "name":
						t, err := dec.ReadValue()
						if err == nil {
							p.Name = a.text(t, true)
						}
						return err
					case "value":
						v, _, err := a.value(true)
						p.Value = v
						return err
					}
					return dec.SkipValue()
				})
				if p.Name != "" {
					n.Properties = append(n.Properties, p)
				}
				return err
			})
		}
		return dec.SkipValue()
	})
}

// value reads an AXValue object and returns its "value" as text.
func (a *axDecoder) value(intern bool) (string, bool, error) {
	var out string
	found := false
	err := readObject(a.dec, func(key string) error {
		if key != "value" {
			return a.dec.SkipValue()
		}
		raw, err := a.dec.ReadValue()
		if err != nil {
			return err
		}
		switch raw.Kind() {
		case '{', '[':
			return nil // node lists and the like: not read
		}
		out, found = a.text(raw, intern), true
		return nil
	})
	return out, found, err
}

// text turns a raw scalar into text: strings unquoted, others as written.
func (a *axDecoder) text(raw jsontext.Value, intern bool) string {
	b := []byte(raw)
	if raw.Kind() == '"' {
		var err error
		a.buf, err = jsontext.AppendUnquote(a.buf[:0], raw)
		if err != nil {
			return ""
		}
		b = a.buf
	}
	if !intern && raw.Kind() == '"' {
		return string(b)
	}
	if s, ok := a.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(a.intern) < 4096 {
		a.intern[s] = s
	}
	return s
}
