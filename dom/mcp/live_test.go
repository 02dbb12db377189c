package mcp_test

import (
	"testing"

	"domscope/dom/mcp"
)

// TestParseView: the --view flag of every front door reads the same.
func TestParseView(t *testing.T) {
	for _, s := range []string{"diff", "full", "none"} {
		if v, err := mcp.ParseView(s); err != nil || string(v) != s {
			t.Errorf("ParseView(%q) = %q, %v", s, v, err)
		}
	}
	for _, s := range []string{"", "Diff", "all"} {
		if _, err := mcp.ParseView(s); err == nil {
			t.Errorf("ParseView(%q) took it", s)
		}
	}
}
