package script

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"domscope/dom"
)

// printSnapshot writes the actor's current snapshot after a step: in text
// mode the flattened text after a "# snapshot" marker line, in json mode
// one JSON line {"step": n, "snapshot": SerializedDom}.
func printSnapshot(ctx context.Context, a dom.Actor, w io.Writer, mode string, opts Options, step int) error {
	snap, err := a.Snapshot(ctx, false)
	if err != nil {
		return err
	}
	fo := dom.DefaultOptions()
	if opts.Flatten != nil {
		fo = *opts.Flatten
	}
	sd, _ := dom.Flatten(snap, fo)
	switch mode {
	case "json":
		b, err := dom.FormatJSON(sd)
		if err != nil {
			return err
		}
		return writeJSONLine(w, struct {
			Step     int             `json:"step"`
			Snapshot json.RawMessage `json:"snapshot"`
		}{step, b})
	default:
		text := dom.FormatText(sd)
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
