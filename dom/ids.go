package dom

import "strings"

// NormalizeID turns "12", "[12]" and "node_12" into "node_12"; anything else
// is returned trimmed, unchanged.
func NormalizeID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "["), "]")
	if id == "" {
		return id
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return id
		}
	}
	return "node_" + id
}
