package live

import (
	"strings"
	"testing"
)

// TestTypingJSParts checks that the typing scripts got their helpers
// (the model's page scripts are checked in its own package).
func TestTypingJSParts(t *testing.T) {
	for name, s := range map[string]struct{ src, got string }{
		"typingKind":    {typingKindSrc, typingKind},
		"prepareTyping": {prepareTypingSrc, prepareTyping},
		"readValue":     {readValueSrc, readValue},
	} {
		if !strings.Contains(s.src, "/*@") || strings.Contains(s.got, "/*@") {
			t.Errorf("%s: its marker is missing from the file or left in the script", name)
		}
		if !strings.Contains(s.got, strings.TrimSuffix(typingHelpers, "\n")) {
			t.Errorf("%s: the typing helpers are missing", name)
		}
	}
}
