package dom

import (
	"bytes"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeSnapshot reads a DOMSnapshot.captureSnapshot result, keeping only
// what Build reads. It streams tokens and carves the per-node rows of
// styles and bounds out of shared slabs: a 50,000-node page has 100,000
// such rows, and one allocation each dominated the build.
func decodeSnapshot(data []byte) (*snapCapture, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	snap := &snapCapture{}
	err := readObject(dec, func(key string) error {
		switch key {
		case "strings":
			return readArray(dec, func() error {
				t, err := dec.ReadToken()
				if err != nil {
					return err
				}
				snap.Strings = append(snap.Strings, t.String())
				return nil
			})
		case "documents":
			return readArray(dec, func() error {
				var d snapDocument
				if err := decodeSnapDocument(dec, &d); err != nil {
					return err
				}
				snap.Documents = append(snap.Documents, d)
				return nil
			})
		}
		return dec.SkipValue()
	})
	return snap, err
}

func decodeSnapDocument(dec *jsontext.Decoder, d *snapDocument) error {
	return readObject(dec, func(key string) error {
		switch key {
		case "documentURL":
			return readInt(dec, &d.DocumentURL)
		case "frameId":
			return readInt(dec, &d.FrameID)
		case "scrollOffsetX":
			return readFloat(dec, &d.ScrollOffsetX)
		case "scrollOffsetY":
			return readFloat(dec, &d.ScrollOffsetY)
		case "nodes":
			return readObject(dec, func(key string) error {
				switch key {
				case "backendNodeId":
					return readArray(dec, func() error {
						var v int
						err := readInt(dec, &v)
						d.Nodes.BackendNodeID = append(d.Nodes.BackendNodeID, int64(v))
						return err
					})
				case "contentDocumentIndex":
					return readRare(dec, &d.Nodes.ContentDocumentIndex)
				case "inputValue":
					return readRare(dec, &d.Nodes.InputValue)
				case "textValue":
					return readRare(dec, &d.Nodes.TextValue)
				case "optionSelected":
					return readRare(dec, &d.Nodes.OptionSelected)
				case "inputChecked":
					return readRare(dec, &d.Nodes.InputChecked)
				}
				return dec.SkipValue()
			})
		case "layout":
			return readObject(dec, func(key string) error {
				switch key {
				case "nodeIndex":
					return readInts(dec, &d.Layout.NodeIndex)
				case "styles":
					var slab []int
					return readArray(dec, func() error {
						start := len(slab)
						err := readArray(dec, func() error {
							var v int
							err := readInt(dec, &v)
							slab = append(slab, v)
							return err
						})
						if cap(slab)-start < 0 {
							return errors.New("layout: bad styles")
						}
						// rows point into the slab; a later growth copies the
						// slab but earlier rows keep their (valid) old backing
						d.Layout.Styles = append(d.Layout.Styles, slab[start:len(slab):len(slab)])
						return err
					})
				case "bounds":
					var slab []float64
					return readArray(dec, func() error {
						start := len(slab)
						err := readArray(dec, func() error {
							var v float64
							err := readFloat(dec, &v)
							slab = append(slab, v)
							return err
						})
						d.Layout.Bounds = append(d.Layout.Bounds, slab[start:len(slab):len(slab)])
						return err
					})
				}
				return dec.SkipValue()
			})
		}
		return dec.SkipValue()
	})
}

// readRare reads one of DOMSnapshot's sparse columns ({index, value}; a
// boolean column has only index).
func readRare(dec *jsontext.Decoder, r *rareInts) error {
	return readObject(dec, func(key string) error {
		switch key {
		case "index":
			return readInts(dec, &r.Index)
		case "value":
			return readInts(dec, &r.Value)
		}
		return dec.SkipValue()
	})
}

// readObject calls f for each key of the object that comes next; f must
// consume the value. A non-object is skipped.
func readObject(dec *jsontext.Decoder, f func(key string) error) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for {
		switch dec.PeekKind() {
		case '}':
			_, err := dec.ReadToken()
			return err
		case 0:
			_, err := dec.ReadToken()
			if err == nil {
				err = errors.New("layout: truncated")
			}
			return err
		}
		// names are read raw and looked up, not unquoted: an allocation
		// per key was most of the decoding garbage
		k, err := dec.ReadValue()
		if err != nil {
			return err
		}
		key := ""
		if len(k) >= 2 {
			key = knownKeys[string(k[1:len(k)-1])]
		}
		if err := f(key); err != nil {
			return err
		}
	}
}

// knownKeys are the object keys the stream decoders read; any other key
// reaches them as "" and is skipped.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"strings", "documents", "documentURL", "frameId", "scrollOffsetX",
		"scrollOffsetY", "nodes", "backendNodeId", "contentDocumentIndex", "index", "value", "layout",
		"nodeIndex", "styles", "bounds", "inputValue", "textValue", "optionSelected", "inputChecked", "ignored", "backendDOMNodeId", "role", "name", "properties"} {
		m[k] = k
	}
	return m
}()

// readArray calls f for each element of the array that comes next; f must
// consume it. A non-array is skipped.
func readArray(dec *jsontext.Decoder, f func() error) error {
	if dec.PeekKind() != '[' {
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for {
		switch dec.PeekKind() {
		case ']':
			_, err := dec.ReadToken()
			return err
		case 0:
			_, err := dec.ReadToken()
			if err == nil {
				err = errors.New("layout: truncated")
			}
			return err
		}
		if err := f(); err != nil {
			return err
		}
	}
}

func readInts(dec *jsontext.Decoder, out *[]int) error {
	return readArray(dec, func() error {
		var v int
		err := readInt(dec, &v)
		*out = append(*out, v)
		return err
	})
}

func readInt(dec *jsontext.Decoder, v *int) error {
	t, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if t.Kind() == '0' {
		*v = int(t.Int())
	} else if t.Kind() == '{' || t.Kind() == '[' {
		return errors.New("layout: expected a number")
	}
	return nil
}

func readFloat(dec *jsontext.Decoder, v *float64) error {
	t, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if t.Kind() == '0' {
		*v = t.Float()
	} else if t.Kind() == '{' || t.Kind() == '[' {
		return errors.New("layout: expected a number")
	}
	return nil
}
