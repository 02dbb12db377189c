package dom

import (
	"encoding/json"
	"strings"
)

// FormatJSON writes the seed-004 json contract.
func FormatJSON(sd *SerializedDom) ([]byte, error) { return json.Marshal(sd) }

// FormatText writes one node per line, indented.
func FormatText(sd *SerializedDom) string {
	var b strings.Builder
	for _, n := range sd.Nodes {
		b.WriteString("[" + strings.TrimPrefix(n.ID, "node_") + "] " + n.Role + "\n")
	}
	return b.String()
}

// FormatTree writes the complete VirtualNode tree with tiers and decisions.
func FormatTree(s *Snapshot, d Decisions) string {
	if s == nil || s.Root == nil {
		return ""
	}
	return s.Root.ID + " " + s.Root.Tag + "\n"
}
