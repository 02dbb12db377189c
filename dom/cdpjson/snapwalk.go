package cdpjson

// Both DOMSnapshot decoders walk the same reply: DecodeDOMSnapshot for
// Build, DecodeNodeLayout for screenshots. The reply is a string table,
// then documents. Each document has its own fields, a "nodes" table and
// a "layout" table. The decoders differ only in which fields they keep.
// The walk is here, once.

// decodeSnapshotReply reads a DOMSnapshot.captureSnapshot reply: the
// string table and each document, read by doc.
func decodeSnapshotReply[D any](data []byte, doc func(*scanner, *D) error) ([]string, []D, error) {
	s := &scanner{data: data}
	var strs []string
	var docs []D
	err := s.object(func(key string) error {
		switch key {
		case "strings":
			return s.array(func() error {
				v, err := s.str()
				strs = append(strs, v)
				return err
			})
		case "documents":
			return s.array(func() error {
				var d D
				if err := doc(s, &d); err != nil {
					return err
				}
				docs = append(docs, d)
				return nil
			})
		}
		return s.skip()
	})
	if err == nil && s.peek() != 0 {
		err = errScan
	}
	return strs, docs, err
}

// docFields reads the fields a decoder keeps of one document. They sit
// in its own fields (top), its "nodes" table and its "layout" table.
// Each reads the value of key and says so. Or it reports false to have
// the value skipped.
type docFields struct {
	top, nodes, layout func(key string) (bool, error)
}

// walkSnapDocument reads one document of a DOMSnapshot reply.
func walkSnapDocument(s *scanner, f docFields) error {
	return s.object(func(key string) error {
		part := f.top
		switch key {
		case "nodes":
			part = f.nodes
		case "layout":
			part = f.layout
		default:
			if ok, err := part(key); ok {
				return err
			}
			return s.skip()
		}
		return s.object(func(key string) error {
			if ok, err := part(key); ok {
				return err
			}
			return s.skip()
		})
	})
}
