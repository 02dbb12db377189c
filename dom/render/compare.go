package render

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"domscope/dom"
)

// Compare is the report of `snapshot --capture compare`: the page taken
// by CDP and by the page walker (diff, their node differences), and
// whether the json and text views are the same. view prints a snapshot
// in a format.
func Compare(diff string, cdp, page *dom.Snapshot, view func(snap *dom.Snapshot, format string) (string, error)) (string, error) {
	var sb strings.Builder
	sb.WriteString(diff)
	fmt.Fprintf(&sb, "capture: cdp %v, page %v\n", Ms(cdp.CaptureTime), Ms(page.CaptureTime))
	for _, format := range []string{"text", "json"} {
		a, err := view(cdp, format)
		if err != nil {
			return "", err
		}
		b, err := view(page, format)
		if err != nil {
			return "", err
		}
		// The timestamps of two captures differ by design.
		a, b = stamp.ReplaceAllString(a, ""), stamp.ReplaceAllString(b, "")
		if a == b {
			fmt.Fprintf(&sb, "%s view: identical\n", format)
			continue
		}
		la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
		fmt.Fprintf(&sb, "%s view: differs (%d lines by CDP, %d by page)\n", format, len(la), len(lb))
		if format == "json" {
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			from := max(0, i-60)
			for from > 0 && !utf8.RuneStart(a[from]) {
				from--
			}
			fmt.Fprintf(&sb, "  - …%s\n  + …%s\n", dom.Clip(a[from:], 160), dom.Clip(b[from:], 160))
		}
		if format == "text" {
			shown := 0
			for i := 0; i < len(la) && i < len(lb) && shown < 10; i++ {
				if la[i] != lb[i] {
					fmt.Fprintf(&sb, "  - %s\n  + %s\n", la[i], lb[i])
					shown++
				}
			}
		}
	}
	return sb.String(), nil
}

var stamp = regexp.MustCompile(`"timestamp": ?"[^"]*"`)
