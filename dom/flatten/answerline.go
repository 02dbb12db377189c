package flatten

import "strings"

// AnswerLine is a line of the text view as an action's answer lists it.
// It is flat, as the interactive view is: the lines around it are only
// those that changed, so their depths say little. It leaves out what an
// agent does not act on: a link's href (the interactive view leaves it
// out too), and a test id where the line says more of its node than its
// role. A text line is only made flat.
func AnswerLine(l string) string {
	l = strings.TrimLeft(l, " ")
	end := strings.Index(l, "] ")
	if !strings.HasPrefix(l, "[") || end < 0 {
		return l
	}
	items, value := lineItems(l[end+2:])
	if len(items) == 0 {
		return l
	}
	testidAlone := len(items) == 2 && value == "" && strings.HasPrefix(items[1], "testid=")
	out := items[:1]
	for _, it := range items[1:] {
		switch {
		case strings.HasPrefix(it, "href="):
		case strings.HasPrefix(it, "testid=") && !testidAlone:
		default:
			out = append(out, it)
		}
	}
	return l[:end+2] + strings.Join(out, " ") + value
}

// lineItems splits what follows a node line's id: its role, then items
// parted by spaces (a quoted string is one item, or part of one), then
// the field's value, which starts at the first ": " outside quotes.
func lineItems(s string) (items []string, value string) {
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\\':
			i++ // an escaped character, a quote among them
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ' ':
			if i > start {
				items = append(items, s[start:i])
			}
			start = i + 1
		case c == ':' && i+1 < len(s) && s[i+1] == ' ':
			if i > start {
				items = append(items, s[start:i])
			}
			return items, s[i:]
		}
	}
	if start < len(s) {
		items = append(items, s[start:])
	}
	return items, ""
}
