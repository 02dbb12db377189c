package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"domscope/dom"
)

// NodeID is a node's id as an agent writes it: "node_12", "12", "[12]" or
// the number 12.
type NodeID string

// UnmarshalJSON takes a string or a number.
func (n *NodeID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*n = NodeID(dom.NormalizeID(s))
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("an id is a string like \"node_12\" or a number")
	}
	*n = NodeID(dom.NormalizeID(strconv.FormatInt(int64(f), 10)))
	return nil
}

// idSchema is the schema of every id argument.
var idSchema = &jsonschema.Schema{
	Types:       []string{"string", "integer"},
	Description: "the node's id from the latest view: [12] in the text view, so 12, \"12\", \"[12]\" or \"node_12\"",
}

// schemaFor infers the input schema of a tool's arguments from their Go
// type. Descriptions come from the jsonschema tags. enums name the
// allowed values of string properties.
func schemaFor[T any](enums map[string][]any) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[NodeID]():   idSchema,
		reflect.TypeFor[ScrollTo](): {Types: []string{"string", "number"}},
	}})
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err)) // a programming error, caught by every test
	}
	for k, vs := range enums {
		if p := s.Properties[k]; p != nil {
			p.Enum = vs
		}
	}
	return s
}
