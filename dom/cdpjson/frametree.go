package cdpjson

// FrameTree is the frameTree of Page.getFrameTree: a frame and those
// inside it.
type FrameTree struct {
	Frame struct {
		ID       string `json:"id"`
		ParentID string `json:"parentId"`
		URL      string `json:"url"`
		Name     string `json:"name"`
	} `json:"frame"`
	ChildFrames []FrameTree `json:"childFrames"`
}

// Walk visits t's frames in document order, each before those inside
// it. When visit returns false, the frames inside that one are skipped.
func (t *FrameTree) Walk(visit func(*FrameTree) bool) {
	if !visit(t) {
		return
	}
	for i := range t.ChildFrames {
		t.ChildFrames[i].Walk(visit)
	}
}
