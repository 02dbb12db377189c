package dom

var flattenRules = []Rule{
	{Name: "drop-tag", Kind: "flatten", Doc: "drop script, style, head, meta, link, noscript, template"},
	{Name: "drop-invisible", Kind: "flatten", Doc: "drop nodes that are not visible"},
	{Name: "keep-semantic", Kind: "flatten", Doc: "keep nodes with a meaningful AX role"},
	{Name: "keep-nonsemantic", Kind: "flatten", Doc: "keep nodes a heuristic marks interactive"},
	{Name: "hoist-structural", Kind: "flatten", Doc: "hoist structural containers into their parent"},
}

// FlattenRules lists the switchable flatten rules.
func FlattenRules() []Rule { return append([]Rule(nil), flattenRules...) }

// Flatten turns a snapshot into the view an LLM receives, plus the decision
// taken for every VirtualNode.
func Flatten(s *Snapshot, opts Options) (*SerializedDom, Decisions) {
	sd := &SerializedDom{Nodes: []*SerializedNode{}, Frames: []FrameInfo{}}
	d := Decisions{}
	if s == nil {
		return sd, d
	}
	sd.URL, sd.Title = s.URL, s.Title
	sd.Frames = append(sd.Frames, s.Frames...)
	return sd, d
}
