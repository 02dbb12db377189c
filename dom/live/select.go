package live

import (
	"context"
	_ "embed" // page scripts
	"strings"

	"domscope/dom"
)

// chooseOption runs in the page with this = a <select> (or an <option> or
// <optgroup> inside one). It picks the option whose value or label equals
// want (trimmed label, then case-insensitive). It fires input and change
// like a person's choice. It returns what it did or the options there
// are.
//
//go:embed select_option.js
var chooseOption string

// selectOption chooses an <option> of a <select> by value or label.
func (s *Service) selectOption(ctx context.Context, t *target, want string) error {
	var r struct {
		OK             bool     `json:"ok"`
		NotSelect      bool     `json:"notSelect"`
		Stale          bool     `json:"stale"`
		Disabled       bool     `json:"disabled"`
		OptionDisabled bool     `json:"optionDisabled"`
		Label          string   `json:"label"`
		Options        []string `json:"options"`
	}
	if err := s.callOn(ctx, t.sess, t.node.BackendID, chooseOption, []any{want}, &r); err != nil {
		return withNode(err, t.node)
	}
	switch {
	case r.OK:
		return nil
	case r.NotSelect:
		return dom.Errorf(dom.ValidationError, nil, "%s (%s) is not a <select> or inside one: for custom listboxes click the option instead", t.node.ID, describeNode(t.node))
	case r.Stale:
		return withNode(dom.Errorf(dom.NodeStale, nil, "the node is no longer in the page"), t.node)
	case r.Disabled:
		return dom.Errorf(dom.NotInteractable, nil, "%s (%s) is disabled", t.node.ID, describeNode(t.node))
	case r.OptionDisabled:
		return dom.Errorf(dom.NotInteractable, nil, "option %q of %s is disabled", r.Label, t.node.ID)
	}
	return dom.Errorf(dom.ValidationError, nil, "%s has no option with value or label %q; options: %s", t.node.ID, want, strings.Join(r.Options, ", "))
}
