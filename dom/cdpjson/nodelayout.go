package cdpjson

// NodeLayout is the part of a DOMSnapshot.captureSnapshot reply that
// finding the sensitive fields of a screenshot needs. That is every
// node's parent, type, name and attributes, and the layout boxes.
type NodeLayout struct {
	Strings []string
	Docs    []NodeLayoutDoc
}

// NodeLayoutDoc is one document of a NodeLayout. The node columns are
// string-table indices where the reply has them.
type NodeLayoutDoc struct {
	ScrollX, ScrollY float64
	Parent           []int
	NodeType         []int
	NodeName         []int
	Backend          []int
	Attrs            [][]int
	Content          RareInts // contentDocumentIndex
	LayoutNode       []int
	Bounds           [][]float64
}

// DecodeNodeLayout reads a DOMSnapshot.captureSnapshot reply. A reply
// with no document is an error.
func DecodeNodeLayout(data []byte) (*NodeLayout, error) {
	strs, docs, err := decodeSnapshotReply(data, decodeNodeLayoutDoc)
	if err == nil && len(docs) == 0 {
		err = errScan
	}
	return &NodeLayout{Strings: strs, Docs: docs}, err
}

func decodeNodeLayoutDoc(s *scanner, d *NodeLayoutDoc) error {
	return walkSnapDocument(s, docFields{
		top: func(key string) (bool, error) {
			switch key {
			case "scrollOffsetX":
				return true, s.float(&d.ScrollX)
			case "scrollOffsetY":
				return true, s.float(&d.ScrollY)
			}
			return false, nil
		},
		nodes: func(key string) (bool, error) {
			switch key {
			case "parentIndex":
				return true, s.ints(&d.Parent)
			case "nodeType":
				return true, s.ints(&d.NodeType)
			case "nodeName":
				return true, s.ints(&d.NodeName)
			case "backendNodeId":
				return true, s.ints(&d.Backend)
			case "attributes":
				var slab []int
				return true, s.array(func() error {
					start := len(slab)
					err := s.ints(&slab)
					d.Attrs = append(d.Attrs, slab[start:len(slab):len(slab)])
					return err
				})
			case "contentDocumentIndex":
				return true, readRare(s, &d.Content)
			}
			return false, nil
		},
		layout: func(key string) (bool, error) {
			switch key {
			case "nodeIndex":
				return true, s.ints(&d.LayoutNode)
			case "bounds":
				return true, readRows(s, &d.Bounds, 0, 0)
			}
			return false, nil
		},
	})
}
