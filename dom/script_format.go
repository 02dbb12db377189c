package dom

import (
	"context"
	"fmt"
	"io"
)

// printSnapshot writes the actor's current snapshot after a step: in text
// mode the flattened text between marker lines, in json mode one JSON line
// {"step": n, "snapshot": SerializedDom}.
func printSnapshot(ctx context.Context, a Actor, w io.Writer, mode string, opts RunOptions, step int) error {
	snap, err := a.Snapshot(ctx, false)
	if err != nil {
		return err
	}
	_ = opts
	switch mode {
	case "json":
		return writeJSONLine(w, map[string]any{"step": step, "snapshot": map[string]any{"url": snap.URL, "title": snap.Title, "nodeCount": len(snap.ByID)}})
	default:
		_, err := fmt.Fprintf(w, "# snapshot #%d after step %d: %s\n# (flattened output arrives with the engine)\n", snap.Seq, step, snap.URL)
		return err
	}
}
