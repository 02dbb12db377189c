package mcp

import (
	_ "embed"
	"strings"
)

//go:embed guide.md
var guide string

// Guide is the agent's guide (`domscope guide`) for this version.
func Guide(version string) string {
	return strings.Replace(guide, "VERSION", version, 1)
}
