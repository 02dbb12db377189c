package cdpjson

// NodeLayout is the part of a DOMSnapshot.captureSnapshot reply that
// finding the sensitive fields of a screenshot needs: every node's
// parent, type, name and attributes, and the layout boxes.
type NodeLayout struct {
	Strings []string
	Docs    []NodeLayoutDoc
}

// NodeLayoutDoc is one document of a NodeLayout; the node columns are
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

// DecodeNodeLayout reads a DOMSnapshot.captureSnapshot reply; a reply
// with no document is an error.
func DecodeNodeLayout(data []byte) (*NodeLayout, error) {
	s := &scanner{data: data}
	snap := &NodeLayout{}
	err := s.object(func(key string) error {
		switch key {
		case "strings":
			return s.array(func() error {
				v, err := s.str()
				snap.Strings = append(snap.Strings, v)
				return err
			})
		case "documents":
			return s.array(func() error {
				var d NodeLayoutDoc
				if err := decodeNodeLayoutDoc(s, &d); err != nil {
					return err
				}
				snap.Docs = append(snap.Docs, d)
				return nil
			})
		}
		return s.skip()
	})
	if err == nil && (s.peek() != 0 || len(snap.Docs) == 0) {
		err = errScan
	}
	return snap, err
}

func decodeNodeLayoutDoc(s *scanner, d *NodeLayoutDoc) error {
	return s.object(func(key string) error {
		switch key {
		case "scrollOffsetX":
			return s.float(&d.ScrollX)
		case "scrollOffsetY":
			return s.float(&d.ScrollY)
		case "nodes":
			return s.object(func(key string) error {
				switch key {
				case "parentIndex":
					return s.ints(&d.Parent)
				case "nodeType":
					return s.ints(&d.NodeType)
				case "nodeName":
					return s.ints(&d.NodeName)
				case "backendNodeId":
					return s.ints(&d.Backend)
				case "attributes":
					var slab []int
					return s.array(func() error {
						start := len(slab)
						err := s.ints(&slab)
						d.Attrs = append(d.Attrs, slab[start:len(slab):len(slab)])
						return err
					})
				case "contentDocumentIndex":
					return readRare(s, &d.Content)
				}
				return s.skip()
			})
		case "layout":
			return s.object(func(key string) error {
				switch key {
				case "nodeIndex":
					return s.ints(&d.LayoutNode)
				case "bounds":
					var slab []float64
					return s.array(func() error {
						start := len(slab)
						err := s.floats(&slab)
						d.Bounds = append(d.Bounds, slab[start:len(slab):len(slab)])
						return err
					})
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}
