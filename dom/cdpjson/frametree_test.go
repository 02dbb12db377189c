package cdpjson_test

import (
	"encoding/json"
	"slices"
	"testing"

	"domscope/dom/cdpjson"
)

// TestFrameTreeWalk: frames come in document order, and a frame the
// visit refuses takes those inside it along.
func TestFrameTreeWalk(t *testing.T) {
	var tree cdpjson.FrameTree
	blob := `{"frame":{"id":"main"},"childFrames":[
		{"frame":{"id":"a","parentId":"main"},"childFrames":[{"frame":{"id":"a1","parentId":"a"}}]},
		{"frame":{"id":"b","parentId":"main"},"childFrames":[{"frame":{"id":"b1","parentId":"b"}}]},
		{"frame":{"id":"c","parentId":"main"}}]}`
	if err := json.Unmarshal([]byte(blob), &tree); err != nil {
		t.Fatal(err)
	}
	var all, kept []string
	tree.Walk(func(f *cdpjson.FrameTree) bool { all = append(all, f.Frame.ID); return true })
	tree.Walk(func(f *cdpjson.FrameTree) bool {
		if f.Frame.ID == "b" {
			return false
		}
		kept = append(kept, f.Frame.ID)
		return true
	})
	if want := []string{"main", "a", "a1", "b", "b1", "c"}; !slices.Equal(all, want) {
		t.Errorf("all frames %v, want %v", all, want)
	}
	if want := []string{"main", "a", "a1", "c"}; !slices.Equal(kept, want) {
		t.Errorf("without b %v, want %v", kept, want)
	}
}
