package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
)

// comparePaths is `snapshot --capture compare`: the page taken by CDP and
// by the page walker, the nodes that differ, and whether the json and
// text views are the same.
func comparePaths(ctx context.Context, p dom.Page, o snapshotOpts, bo build.Options) error {
	cdp, page, d, err := capture.ComparePaths(ctx, p, bo)
	if err != nil {
		return err
	}
	var sb strings.Builder
	sb.WriteString(d.Text())
	fmt.Fprintf(&sb, "capture: cdp %v, page %v\n", ms(cdp.CaptureTime), ms(page.CaptureTime))
	for _, format := range []string{"text", "json"} {
		a, err := viewOf(ctx, p, o, cdp, format)
		if err != nil {
			return err
		}
		b, err := viewOf(ctx, p, o, page, format)
		if err != nil {
			return err
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
	_, err = os.Stdout.WriteString(sb.String())
	return err
}

var stamp = regexp.MustCompile(`"timestamp": ?"[^"]*"`)

// viewOf flattens a snapshot into one of the views, as runSnapshot does.
func viewOf(ctx context.Context, p dom.Page, o snapshotOpts, snap *dom.Snapshot, format string) (string, error) {
	opts, err := o.flattenOptions(ctx, p, snap)
	if err != nil {
		return "", err
	}
	v := o.render(opts.Disabled)
	v.Format = format
	text, _, err := v.Print(snap, opts)
	return strings.TrimSuffix(text, "\n"), err
}
