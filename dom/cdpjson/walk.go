package cdpjson

import (
	"bytes"
	"io"
	"sort"

	"github.com/go-json-experiment/json/jsontext"
)

// Step is one level of the path to a value. It is the current key of an
// object, or the index of the current element of an array.
type Step struct {
	Object bool
	Key    string
	Index  int
}

// Visitor receives Walk's events. path is the chain of open
// containers, the innermost last.
type Visitor struct {
	// Open is called before a container is entered; path does not hold it
	// yet. Returning false skips the container unread.
	Open func(path []Step, kind jsontext.Kind) bool
	// Enter is called after a container starts (path holds it), with the
	// offset of its opening bracket.
	Enter func(path []Step, start int64)
	// Close is called before a container ends; path still holds it. at is
	// the offset just after its last element, where one can be added.
	Close func(path []Step, at int64)
	// Exit is called after a container ends; path still holds it. It gets
	// the offset just after its closing bracket.
	Exit func(path []Step, end int64)
	// Scalar is called for every value that is not an object name, with
	// its byte span in the blob.
	Scalar func(path []Step, v jsontext.Value, start, end int64)
}

// Walk streams blob once, tracking the path to each value. It has no
// limit on size and does not build the value in memory. Page strings may
// hold invalid UTF-8 and objects duplicate names; both are tolerated.
func Walk(blob []byte, v Visitor) error {
	dec := jsontext.NewDecoder(bytes.NewReader(blob), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	var path []Step
	names := map[string]string{}
	advance := func() {
		if l := len(path); l > 0 && !path[l-1].Object {
			path[l-1].Index++
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
			if v.Open != nil && !v.Open(path, k) {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				advance()
				continue
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			path = append(path, Step{Object: k == '{'})
			if v.Enter != nil {
				v.Enter(path, dec.InputOffset()-1)
			}
		case k == '}' || k == ']':
			if v.Close != nil {
				v.Close(path, dec.InputOffset())
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			if v.Exit != nil {
				v.Exit(path, dec.InputOffset())
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
				key = Text(raw)
				if len(names) < 1024 {
					names[string(raw)] = key
				}
			}
			path[len(path)-1].Key = key
		default:
			val, err := dec.ReadValue()
			if err != nil {
				return err
			}
			end := dec.InputOffset()
			if v.Scalar != nil {
				v.Scalar(path, val, end-int64(len(val)), end)
			}
			advance()
		}
	}
}

// Edit replaces blob[start:end] with repl (an insertion when start == end).
type Edit struct {
	Start, End int64
	Repl       []byte
}

// Splice applies non-overlapping edits to blob.
func Splice(blob []byte, edits []Edit) []byte {
	if len(edits) == 0 {
		return blob
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	out := make([]byte, 0, len(blob))
	var at int64
	for _, e := range edits {
		if e.Start < at || e.End > int64(len(blob)) || e.End < e.Start {
			continue // overlapping or out of range: cannot happen for spans Walk gave
		}
		out = append(out, blob[at:e.Start]...)
		out = append(out, e.Repl...)
		at = e.End
	}
	return append(out, blob[at:]...)
}

// Text returns the text of a JSON string value ("" for other kinds).
func Text(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	b, err := jsontext.AppendUnquote(nil, v)
	if err != nil && len(b) == 0 {
		return ""
	}
	return string(b)
}

// Quote encodes s as a JSON string.
func Quote(s string) []byte {
	b, _ := jsontext.AppendQuote(nil, s)
	return b
}

// PathIs reports whether path names the keys given, in order. "#" in want
// matches any array index.
func PathIs(path []Step, want ...string) bool {
	if len(path) != len(want) {
		return false
	}
	for i, w := range want {
		s := path[i]
		if w == "#" {
			if s.Object {
				return false
			}
			continue
		}
		if !s.Object || s.Key != w {
			return false
		}
	}
	return true
}
