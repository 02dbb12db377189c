package dom

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// printSnapshot writes the actor's current snapshot after a step: in text
// mode the flattened text after a "# snapshot" marker line, in json mode
// one JSON line {"step": n, "snapshot": SerializedDom}.
func printSnapshot(ctx context.Context, a Actor, w io.Writer, mode string, opts RunOptions, step int) error {
	snap, err := a.Snapshot(ctx, false)
	if err != nil {
		return err
	}
	fo := DefaultOptions()
	if opts.Flatten != nil {
		fo = *opts.Flatten
	}
	sd, _ := Flatten(snap, fo)
	switch mode {
	case "json":
		b, err := FormatJSON(sd)
		if err != nil {
			return err
		}
		return writeJSONLine(w, struct {
			Step     int             `json:"step"`
			Snapshot json.RawMessage `json:"snapshot"`
		}{step, b})
	default:
		text := FormatText(sd)
		if _, err := fmt.Fprintf(w, "# snapshot #%d after step %d: %s\n", snap.Seq, step, snap.URL); err != nil {
			return err
		}
		if len(text) > 0 && text[len(text)-1] != '\n' {
			text += "\n"
		}
		_, err := io.WriteString(w, text)
		return err
	}
}
