package dom

import (
	"strconv"
	"strings"
)

// NormalizeID turns "12", "[12]" and "node_12" into "node_12". Anything
// else is returned trimmed, unchanged.
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

// IDNumber parses the N of "node_N".
func IDNumber(id string) (int, bool) {
	s, ok := strings.CutPrefix(id, "node_")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
