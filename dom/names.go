package dom

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Length limits of names and texts in the flattened view, in runes.
const (
	MaxNameLen = 250
	MaxTextLen = 500
)

// collapseSpace trims s and turns every run of white space into one space.
func collapseSpace(s string) string {
	// Most texts are ASCII with single spaces, often with white space
	// around them: those come back as a part of s, with no copy.
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	simple := true
	for k := i; k < j; k++ {
		c := s[k]
		if c >= utf8.RuneSelf || isSpace(c) && (c != ' ' || isSpace(s[k+1])) {
			simple = false
			break
		}
	}
	if simple {
		return s[i:j]
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// truncate cuts s to at most max runes, the last being an ellipsis.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			if utf8.RuneCountInString(s[i:]) <= 1 {
				return s
			}
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// cleanName collapses white space and truncates to MaxNameLen.
func cleanName(s string) string { return truncate(collapseSpace(s), MaxNameLen) }

// subtreeText collects the text of node n's visible-by-structure
// descendants (not script/style, not user-agent internals, not private
// fields), collapsed, up to max runes. It walks with a stack and gives up
// after a bounded number of nodes so a huge container costs little.
func subtreeText(n *VirtualNode, max int) string {
	var b strings.Builder
	stack := []*VirtualNode{n}
	visited := 0
	for len(stack) > 0 && visited < 2000 && b.Len() < max*4 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		switch c.Tag {
		case "script", "style", "noscript", "template", "head", "#comment":
			continue
		case "#shadow-root":
			if c.ShadowType == "user-agent" {
				continue
			}
		case "#text":
			if c.Text != "" {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(c.Text)
			}
			continue
		}
		for i := len(c.Children) - 1; i >= 0; i-- {
			stack = append(stack, c.Children[i])
		}
	}
	return truncate(collapseSpace(b.String()), max)
}

// attrName is the name an element gives itself without the AX tree.
func attrName(n *VirtualNode) string {
	for _, k := range []string{"aria-label", "title", "alt", "placeholder"} {
		if v := strings.TrimSpace(n.Attrs[k]); v != "" {
			return v
		}
	}
	if n.Tag == "input" {
		switch strings.ToLower(n.Attrs["type"]) {
		case "button", "submit", "reset":
			return n.Attrs["value"]
		}
	}
	return ""
}
