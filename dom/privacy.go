package dom

import "strings"

// isPrivateInput reports whether an <input>'s value must never be kept: a
// password field, or one whose autocomplete names a payment card field
// (cc-number, cc-csc, cc-exp...).
func isPrivateInput(attrs map[string]string) bool {
	if strings.EqualFold(strings.TrimSpace(attrs["type"]), "password") {
		return true
	}
	for _, tok := range strings.Fields(strings.ToLower(attrs["autocomplete"])) {
		if strings.HasPrefix(tok, "cc-") {
			return true
		}
	}
	return false
}

// redactAttrs removes the value a private field was served with.
func redactAttrs(attrs map[string]string) {
	delete(attrs, "value")
}

// Redacted replaces text that came from a private field.
const Redacted = ""
