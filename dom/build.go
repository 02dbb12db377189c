package dom

// BuildOptions control Build.
type BuildOptions struct {
	// Prev is the previous snapshot of the same target; nodes that survive
	// in the same document keep their IDs.
	Prev *Snapshot
	// Disabled names tier rules switched off (see TierRules).
	Disabled map[string]bool
}

// Build turns a raw capture into the complete VirtualNode tree.
func Build(raw *RawCapture, opts BuildOptions) (*Snapshot, error) {
	if raw == nil {
		return nil, Errorf(ValidationError, nil, "nothing to build: the capture is nil")
	}
	root := &VirtualNode{ID: "node_1", NodeType: DocumentNode, Tag: "#document", Role: "document", Visible: true}
	s := &Snapshot{URL: raw.URL, Title: raw.Title, TargetID: raw.TargetID, Root: root, Raw: raw,
		ByID: map[string]*VirtualNode{root.ID: root}}
	return s, nil
}
