package dom

import (
	"domscope/dom/internal/textutil"
	"strings"
)

// SensitiveField is the one place that decides whether a form field's value
// is secret. A field is sensitive when:
//   - it is an <input type=password>.
//   - its autocomplete attribute holds current-password, new-password,
//     one-time-code or a cc-* token (cc-number, cc-csc, cc-exp, ...).
//     Any case counts, anywhere in its token list.
//
// The autocomplete rule applies to any element (a type=text input behind
// a show-password toggle, a textarea). The value is secret whatever holds
// it. attrs maps attribute names, in any case, to values.
func SensitiveField(tag string, attrs map[string]string) bool {
	var typ, ac string
	for k, v := range attrs {
		switch strings.ToLower(k) {
		case "type":
			typ = v
		case "autocomplete":
			ac = v
		}
	}
	return SensitiveAttrs(tag, typ, ac)
}

// SensitiveAttrs is SensitiveField on the three facts it reads. They are
// the tag, and the type and autocomplete attribute values.
func SensitiveAttrs(tag, typ, autocomplete string) bool {
	if strings.EqualFold(tag, "input") && strings.EqualFold(strings.TrimSpace(typ), "password") {
		return true
	}
	for _, tok := range strings.Fields(strings.ToLower(autocomplete)) {
		switch {
		case tok == "current-password", tok == "new-password", tok == "one-time-code",
			strings.HasPrefix(tok, "cc-"):
			return true
		}
	}
	return false
}

// Sensitive reports whether n is a sensitive field (see SensitiveField).
func (n *VirtualNode) Sensitive() bool {
	return n != nil && n.NodeType == ElementNode && SensitiveField(n.Tag, n.Attrs)
}

// TakesSecret reports whether text typed, a key pressed or an option
// picked on n is secret. That holds when n is a sensitive field, or a
// <label> of one. What is done on a label goes to its control
// (LabelControl).
func (n *VirtualNode) TakesSecret() bool {
	if n.Sensitive() {
		return true
	}
	c := LabelControl(n)
	return c != nil && c.Sensitive()
}

// Mask stands for text typed into or held by a sensitive field wherever
// it would be shown: prompts, action descriptions, run output.
const Mask = "••••"

// MaskIf returns Mask for non-empty text when sensitive is true, else text.
func MaskIf(sensitive bool, text string) string {
	if sensitive && text != "" {
		return Mask
	}
	return text
}

// MinSubstringSecret is the shortest secret also removed from inside
// longer strings. Shorter ones are removed only where a whole string
// equals them. So a one-letter password does not erase that letter
// everywhere.
const MinSubstringSecret = 4

// CleanSecrets drops empty and duplicate secrets, and Mask. It adds each
// secret's squeezed form: accessible names trim a value and squeeze its
// runs of spaces, so a label's name may hold the value that way.
func CleanSecrets(in []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		// Mask is what a scrubbed field already holds. Scrubbing again must
		// keep it.
		if s == "" || strings.TrimSpace(s) == "" || s == Mask || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
	}
	for _, s := range in {
		add(s)
	}
	for _, s := range in {
		add(textutil.Collapse(s)) // as names collapse it
	}
	return out
}

// ScrubString removes secret from s. s is emptied when it is the secret.
// A secret of MinSubstringSecret bytes or more is cut out of it.
func ScrubString(s, secret string) string {
	if s == secret {
		return ""
	}
	if len(secret) >= MinSubstringSecret && strings.Contains(s, secret) {
		return strings.ReplaceAll(s, secret, "")
	}
	return s
}
