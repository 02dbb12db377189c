package mcp

import (
	"encoding/json"
	"strings"
	"sync"

	"domscope/dom"
	"domscope/dom/flatten"
)

// secrets are the values an agent typed, pressed or picked in sensitive
// fields. The capture already keeps them out of every view; this is the
// last door. Console lines, dialog messages and error texts are page or
// engine strings that may repeat them. So every text that leaves the
// server has them masked: responses, the observer, the log.
type secrets struct {
	mu   sync.Mutex
	vals []string
}

// minSecret is the shortest value masked inside longer text. A one-letter
// value would erase that letter everywhere.
const minSecret = 3

// add remembers a value typed into a sensitive field.
func (s *secrets) add(v string) {
	v = strings.TrimSuffix(v, "\n")
	if len(v) < minSecret {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.vals {
		if x == v {
			return
		}
	}
	s.vals = append(s.vals, v)
}

// mask replaces every remembered value in text, as typed and as escaped
// in JSON.
func (s *secrets) mask(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.vals {
		text = strings.ReplaceAll(text, v, dom.Mask)
		if e := escaped(v); e != v {
			text = strings.ReplaceAll(text, e, dom.Mask)
		}
	}
	return text
}

// escaped is v as it appears inside a JSON string.
func escaped(v string) string {
	b, _ := json.Marshal(v)
	return string(flatten.EscapeJSON(b[1 : len(b)-1]))
}
