package dom

import (
	"bytes"
	"io"
	"sort"

	"github.com/go-json-experiment/json/jsontext"
)

// jsonStep is one level of the path to a value: the current key of an
// object, or the index of the current element of an array.
type jsonStep struct {
	obj bool
	key string
	idx int
}

// jsonVisitor receives walkJSON's events. path is the chain of open
// containers, the innermost last.
type jsonVisitor struct {
	// open is called before a container is entered (path does not hold it
	// yet); returning false skips the container unread.
	open func(path []jsonStep, kind jsontext.Kind) bool
	// enter is called after a container starts (path holds it), with the
	// offset of its opening bracket.
	enter func(path []jsonStep, start int64)
	// close is called before a container ends (path still holds it); at is
	// the offset just after its last element, where an element can be added.
	close func(path []jsonStep, at int64)
	// exit is called after a container ends (path still holds it), with the
	// offset just after its closing bracket.
	exit func(path []jsonStep, end int64)
	// scalar is called for every value that is not an object name, with
	// its byte span in the blob.
	scalar func(path []jsonStep, v jsontext.Value, start, end int64)
}

// walkJSON streams blob once, tracking the path to each value, with no
// limit on size and without building it in memory. Page strings may hold
// invalid UTF-8 and objects duplicate names: both are tolerated.
func walkJSON(blob []byte, v jsonVisitor) error {
	dec := jsontext.NewDecoder(bytes.NewReader(blob), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	var path []jsonStep
	names := map[string]string{}
	advance := func() {
		if l := len(path); l > 0 && !path[l-1].obj {
			path[l-1].idx++
		}
	}
	for {
		kind, n := dec.StackIndex(dec.StackDepth())
		isName := kind == '{' && n%2 == 0
		switch k := dec.PeekKind(); {
		case k == 0:
			_, err := dec.ReadToken()
			if err == io.EOF {
				return nil
			}
			return err
		case k == '{' || k == '[':
			if v.open != nil && !v.open(path, k) {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				advance()
				continue
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			path = append(path, jsonStep{obj: k == '{'})
			if v.enter != nil {
				v.enter(path, dec.InputOffset()-1)
			}
		case k == '}' || k == ']':
			if v.close != nil {
				v.close(path, dec.InputOffset())
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			if v.exit != nil {
				v.exit(path, dec.InputOffset())
			}
			path = path[:len(path)-1]
			advance()
		case isName:
			raw, err := dec.ReadValue()
			if err != nil {
				return err
			}
			// names repeat on every object: one string each
			key, ok := names[string(raw)]
			if !ok {
				key = jsonString(raw)
				if len(names) < 1024 {
					names[string(raw)] = key
				}
			}
			path[len(path)-1].key = key
		default:
			val, err := dec.ReadValue()
			if err != nil {
				return err
			}
			end := dec.InputOffset()
			if v.scalar != nil {
				v.scalar(path, val, end-int64(len(val)), end)
			}
			advance()
		}
	}
}

// jsonEdit replaces blob[start:end] with repl (an insertion when start == end).
type jsonEdit struct {
	start, end int64
	repl       []byte
}

// spliceJSON applies non-overlapping edits to blob.
func spliceJSON(blob []byte, edits []jsonEdit) []byte {
	if len(edits) == 0 {
		return blob
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	out := make([]byte, 0, len(blob))
	var at int64
	for _, e := range edits {
		if e.start < at || e.end > int64(len(blob)) || e.end < e.start {
			continue // overlapping or out of range: cannot happen for spans walkJSON gave
		}
		out = append(out, blob[at:e.start]...)
		out = append(out, e.repl...)
		at = e.end
	}
	return append(out, blob[at:]...)
}

// jsonString returns the text of a JSON string value ("" for other kinds).
func jsonString(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	b, err := jsontext.AppendUnquote(nil, v)
	if err != nil && len(b) == 0 {
		return ""
	}
	return string(b)
}

// quoteJSON encodes s as a JSON string.
func quoteJSON(s string) []byte {
	b, _ := jsontext.AppendQuote(nil, s)
	return b
}

// pathIs reports whether path names the keys given, in order; "#" in want
// matches any array index.
func pathIs(path []jsonStep, want ...string) bool {
	if len(path) != len(want) {
		return false
	}
	for i, w := range want {
		s := path[i]
		if w == "#" {
			if s.obj {
				return false
			}
			continue
		}
		if !s.obj || s.key != w {
			return false
		}
	}
	return true
}
