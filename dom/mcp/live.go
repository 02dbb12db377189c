package mcp

import (
	"fmt"

	"domscope/dom"
	"domscope/dom/live"
)

// NewLive is the one start-up of an MCP server on live services, for
// every front door: `domscope mcp`, the UI's --mcp and the agent CLI's
// sessions. Each tab the server attaches to or opens gets a live
// service with lc, as cfg.Service has.
func NewLive(cfg Config, lc live.Config) *Server {
	cfg.NewService = func(p dom.Page) Service { return live.NewService(p, lc) }
	return New(cfg)
}

// ParseView reads a --view flag: diff, full or none.
func ParseView(s string) (View, error) {
	switch v := View(s); v {
	case ViewDiff, ViewFull, ViewNone:
		return v, nil
	}
	return "", fmt.Errorf("--view %q: want diff, full or none", s)
}
