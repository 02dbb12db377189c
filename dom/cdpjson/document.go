package cdpjson

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// ParseDocument reads a DOM.getDocument result ({"root": Node}) or a bare
// Node. null or nothing reads as no document. It scans the bytes (see
// scanner) with an explicit stack. Pages nest deeper than any decoder's
// limit: encoding/json and jsontext stop at 10,000 levels, two per
// element. With no recursion, there is none to run out of. Keys it does
// not read are skipped. Tag names, attribute names and frame ids repeat
// on every node, so each is one string.
func ParseDocument(data []byte) (*Node, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil, nil
	}
	p := &docParser{s: scanner{data: data}, intern: map[string]string{}}
	return p.parse()
}

// docParser is one ParseDocument.
type docParser struct {
	s      scanner
	intern map[string]string
	buf    []byte
}

// docFrame is an open container of the walk. It is a node's object, or a
// list of nodes (children, shadowRoots) when list is set.
type docFrame struct {
	node *Node
	list *[]*Node
}

func (p *docParser) parse() (*Node, error) {
	s := &p.s
	if s.peek() != '{' {
		return nil, errors.New("document: not a JSON object")
	}
	s.pos++
	// The outer object may be {"root": Node} or a Node. It is read as a
	// Node whose "root" key lands in a holder's ContentDocument.
	holder := &Node{}
	stack := []docFrame{{node: holder}}
	sawRoot := false
	// first: the next member or element is the first of its container
	first := true
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		c := s.peek()
		if c == 0 {
			return nil, errors.New("document: truncated")
		}
		closer := byte('}')
		if top.list != nil {
			closer = ']'
		}
		if c == closer {
			s.pos++
			stack = stack[:len(stack)-1]
			first = false
			continue
		}
		if !first {
			if c != ',' {
				return nil, errScan
			}
			s.pos++
			c = s.peek()
		}
		first = false
		if top.list != nil {
			if c != '{' {
				if err := s.skip(); err != nil {
					return nil, err
				}
				continue
			}
			s.pos++
			n := &Node{}
			*top.list = append(*top.list, n)
			stack = append(stack, docFrame{node: n})
			first = true
			continue
		}
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		n := top.node
		switch key {
		case "children", "shadowRoots":
			if s.peek() != '[' {
				if err := s.skip(); err != nil {
					return nil, err
				}
				continue
			}
			s.pos++
			l := &n.Children
			if key == "shadowRoots" {
				l = &n.ShadowRoots
			}
			stack = append(stack, docFrame{list: l})
			first = true
		case "root", "contentDocument", "templateContent":
			if s.peek() != '{' {
				if err := s.skip(); err != nil {
					return nil, err
				}
				continue
			}
			s.pos++
			c := &Node{}
			switch {
			case key == "root" && n == holder:
				sawRoot = true
				n.ContentDocument = c
			case key == "templateContent":
				n.TemplateContent = c
			default:
				n.ContentDocument = c
			}
			stack = append(stack, docFrame{node: c})
			first = true
		case "attributes":
			err := s.array(func() error {
				// names (even places) are few, values are many
				v, ok, err := p.text(len(n.Attributes)%2 == 0)
				if ok {
					n.Attributes = append(n.Attributes, v)
				}
				return err
			})
			if err != nil {
				return nil, err
			}
		case "nodeId", "backendNodeId", "nodeType":
			v, ok, err := p.int()
			if err != nil {
				return nil, err
			}
			if ok {
				switch key {
				case "nodeId":
					n.NodeID = v
				case "backendNodeId":
					n.BackendNodeID = v
				default:
					n.NodeType = int(v)
				}
			}
		case "nodeName", "localName", "nodeValue", "frameId", "shadowRootType", "documentURL":
			v, ok, err := p.text(key != "nodeValue" && key != "documentURL")
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
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
			if err := s.skip(); err != nil {
				return nil, err
			}
		}
	}
	if sawRoot {
		return holder.ContentDocument, nil
	}
	return holder, nil
}

// key reads an object's key and its colon; a key it does not read is "".
func (p *docParser) key() (string, error) {
	s := &p.s
	if s.peek() != '"' {
		return "", errScan
	}
	start := s.pos + 1
	if err := s.skipString(); err != nil {
		return "", err
	}
	// keys are looked up raw, not unquoted: none of ours has escapes
	key := documentKeys[string(s.data[start:s.pos-1])]
	if s.peek() != ':' {
		return "", errScan
	}
	s.pos++
	return key, nil
}

// text reads a string value. Any other kind gives ok false and is
// skipped. A string with invalid UTF-8 or a lone surrogate reads as "".
// With intern, equal strings are one.
func (p *docParser) text(intern bool) (string, bool, error) {
	s := &p.s
	if s.peek() != '"' {
		return "", false, s.skip()
	}
	start := s.pos
	if err := s.skipString(); err != nil {
		return "", false, err
	}
	raw := s.data[start:s.pos]
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') >= 0 || !utf8.Valid(body) {
		var err error
		if p.buf, err = jsontext.AppendUnquote(p.buf[:0], raw); err != nil {
			return "", true, nil
		}
		body = p.buf
	}
	if !intern {
		return string(body), true, nil
	}
	if v, ok := p.intern[string(body)]; ok {
		return v, true, nil
	}
	v := string(body)
	if len(p.intern) < 4096 {
		p.intern[v] = v
	}
	return v, true, nil
}

// int reads a number as jsontext's Token.Int does. An integer reads
// exactly, saturated. Any other number is truncated toward zero. A string
// or literal reads as no number (ok false). An object or array is an
// error.
func (p *docParser) int() (int64, bool, error) {
	s := &p.s
	switch s.peek() {
	case '{', '[', 0:
		return 0, false, errScan
	case '"':
		return 0, false, s.skipString()
	}
	b := s.scalar()
	if len(b) == 0 {
		return 0, false, errScan
	}
	if b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return 0, false, nil // true, false, null
	}
	digits, neg := b, false
	if digits[0] == '-' {
		digits, neg = digits[1:], true
	}
	if u, err := strconv.ParseUint(string(digits), 10, 64); err == nil || errors.Is(err, strconv.ErrRange) && allDigits(digits) {
		switch {
		case err != nil && neg, neg && u > 1<<63:
			return math.MinInt64, true, nil
		case err != nil, !neg && u > math.MaxInt64:
			return math.MaxInt64, true, nil
		case neg:
			return -int64(u), true, nil
		}
		return int64(u), true, nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false, errScan
	}
	switch {
	case math.IsNaN(f):
		return 0, true, nil
	case f >= math.MaxInt64:
		return math.MaxInt64, true, nil
	case f <= math.MinInt64:
		return math.MinInt64, true, nil
	}
	return int64(f), true, nil
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// documentKeys are the DOM.Node keys ParseDocument reads.
var documentKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"root", "children", "shadowRoots", "contentDocument", "templateContent",
		"attributes", "nodeId", "backendNodeId", "nodeType", "nodeName", "localName", "nodeValue",
		"frameId", "shadowRootType", "documentURL"} {
		m[k] = k
	}
	return m
}()
