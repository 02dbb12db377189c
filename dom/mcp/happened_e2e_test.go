package mcp_test

import (
	"testing"
	"time"

	"domscope/dom/mcp"
)

func TestExploreHappened(t *testing.T) {
	f := setupIn(t, "happened", mcp.ViewDiff, "flash.html")
	v := f.ok("dom_snapshot", map[string]any{})
	t.Log(v)
	time.Sleep(600 * time.Millisecond)
	for _, b := range []string{"Do nothing", "Save", "Flash 300", "Announce", "Late 400", "Validate", "Shadow flash"} {
		id := idOf(t, v, `button "`+b+`"`)
		t.Log(f.ok("dom_click", map[string]any{"id": id}))
	}
}
