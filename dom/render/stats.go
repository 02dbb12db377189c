package render

import (
	"fmt"
	"io"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
)

// Stats writes snapshot --stats' lines for snap printed as out.
func Stats(w io.Writer, snap *dom.Snapshot, out, format string, captureTime, buildTime, flattenTime time.Duration) {
	var nodes, hidden int
	tiers := map[dom.Tier]int{}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		nodes++
		tiers[n.Tier]++
		if !n.Visible {
			hidden++
		}
	})
	fmt.Fprintf(w, "tokens (o200k, %s): %d\n", format, flatten.CountTokens(out))
	fmt.Fprintf(w, "nodes: %d (semantic %d, non-semantic %d, structural %d; hidden %d)\n",
		nodes, tiers[dom.Semantic], tiers[dom.NonSemantic], tiers[dom.Structural], hidden)
	oop := 0
	for _, f := range snap.Frames {
		if f.OutOfProcess {
			oop++
		}
	}
	fmt.Fprintf(w, "frames: %d, out-of-process targets: %d\n", len(snap.Frames), oop)
	fmt.Fprintf(w, "capture %s, build %s, flatten+format %s\n", Ms(captureTime), Ms(buildTime), Ms(flattenTime))
}

// Ms is a duration in whole milliseconds, as the logs print it.
func Ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }
