package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"domscope/dom"
)

// NodeID is a node's id as an agent writes it: "node_12", "12", "[12]" or
// the number 12.
type NodeID string

// UnmarshalJSON takes a string or a number.
func (n *NodeID) UnmarshalJSON(b []byte) error {
	s, f, isNum, err := stringOrNumber(b, `an id is a string like "node_12" or a number`)
	if err != nil {
		return err
	}
	if isNum {
		s = strconv.FormatInt(int64(f), 10)
	}
	*n = NodeID(dom.NormalizeID(s))
	return nil
}

// stringOrNumber reads a JSON string, or a number (isNum). bad is the
// error for anything else: an agent reads it.
func stringOrNumber(b []byte, bad string) (s string, f float64, isNum bool, err error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		err = json.Unmarshal(b, &s)
		return s, 0, false, err
	}
	if json.Unmarshal(b, &f) != nil {
		return "", 0, false, errors.New(bad)
	}
	return "", f, true, nil
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
		reflect.TypeFor[NodeID]():     idSchema,
		reflect.TypeFor[ScrollTo]():   {Types: []string{"string", "number"}},
		reflect.TypeFor[dom.Expect](): expectSchema,
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

// Bounds on a call's strings. A 10 MB dom_type keeps the page busy for a
// minute, and a selector or URL that long is a mistake or an attack.
const (
	// MaxText bounds typed text (dom_type, dom_dialog's prompt text).
	MaxText = 64 << 10
	// MaxArg bounds every other string: selectors, URLs, keys, values.
	MaxArg = 8 << 10
)

// checkLimits refuses a string argument past its bound with a
// VALIDATION_ERROR that names it.
func checkLimits(in any) error {
	v := reflect.ValueOf(in)
	if v.Kind() != reflect.Struct {
		return nil
	}
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.String {
			continue
		}
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		limit := MaxArg
		if name == "text" {
			limit = MaxText
		}
		if n := len(f.String()); n > limit {
			return dom.Errorf(dom.ValidationError, nil, "%s is %d bytes long; at most %d are taken", name, n, limit)
		}
	}
	return nil
}

// maxLogArgs bounds the arguments a log line or the call list shows.
const maxLogArgs = 400

// clipArgs cuts args to maxLogArgs bytes, at a rune's start.
func clipArgs(args string) string {
	if len(args) <= maxLogArgs {
		return args
	}
	cut := maxLogArgs
	for cut > 0 && !utf8.RuneStart(args[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", args[:cut], len(args))
}

// expectSchema is the schema of an action's expect argument (dom.Expect;
// written out, as its alternatives nest).
var expectSchema = func() *jsonschema.Schema {
	str := func(d string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: d} }
	props := map[string]*jsonschema.Schema{
		"appears":    str("a text the page shows after the action (or that flashed)"),
		"gone":       str("a text the page no longer shows"),
		"url":        str("a part of the page's URL after the action"),
		"navigates":  {Type: "boolean", Description: "the tab navigates"},
		"change":     {Type: "string", Enum: []any{"none", "any"}, Description: "no visible change, or any"},
		"value":      str("the target's value"),
		"state":      str("a state of the target as the view prints it: checked, expanded, selected; \"not checked\""),
		"timeout_ms": {Type: "integer", Description: "how long to wait for it (default 2000)"},
	}
	alt := &jsonschema.Schema{Type: "object", Properties: props}
	all := map[string]*jsonschema.Schema{"any": {Type: "array", Items: alt, Description: "alternatives: one must hold"}}
	for k, v := range props {
		all[k] = v
	}
	return &jsonschema.Schema{Type: "object", Properties: all, Description: "what the action should do; if it does not, the action fails with EXPECTATION_FAILED and says what the page did instead"}
}()
