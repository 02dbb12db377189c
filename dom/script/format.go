package script

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
)

// printSnapshot writes the actor's current snapshot after a step. Text
// mode writes the flattened text after a "# snapshot" marker line. JSON
// mode writes one line {"step": n, "snapshot": SerializedDom}. After a
// sleep the page is read again. What changed by itself since the last
// step answered comes first, as dom_snapshot says it: "# since the last
// step" lines, or the JSON line's "later".
func printSnapshot(ctx context.Context, a dom.Actor, w io.Writer, mode string, opts Options, step int, reread bool) error {
	snap, err := a.Snapshot(ctx, reread)
	// A dialog that opened during the read stopped it as well.
	if dom.CodeOf(err) == dom.DialogOpen || (err != nil && openDialog(a) != nil) {
		return printBlocked(w, a, mode, step, err)
	}
	if err != nil {
		return err
	}
	fo := dom.DefaultOptions()
	if opts.Flatten != nil {
		fo = *opts.Flatten
	}
	var later *dom.Later
	if l, ok := a.(laterTeller); ok {
		later = l.Later(snap)
	}
	sd, _ := flatten.Flatten(snap, fo)
	switch mode {
	case "json":
		b, err := flatten.FormatJSON(sd)
		if err != nil {
			return err
		}
		return writeJSONLine(w, struct {
			Step     int             `json:"step"`
			Later    *dom.Later      `json:"later,omitempty"`
			Snapshot json.RawMessage `json:"snapshot"`
		}{step, later, b})
	default:
		text := flatten.FormatText(sd)
		if _, err := io.WriteString(w, laterText(later)); err != nil {
			return err
		}
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

// openDialog returns the JavaScript dialog open in a's page, if a can tell.
func openDialog(a dom.Actor) *dom.DialogInfo {
	if da, ok := a.(interface{ Dialog() *dom.DialogInfo }); ok {
		return da.Dialog()
	}
	return nil
}

// printBlocked stands in for the snapshot while a JavaScript dialog blocks
// the page. The run goes on, and a later "dialog" step closes it.
func printBlocked(w io.Writer, a dom.Actor, mode string, step int, cause error) error {
	d := openDialog(a)
	if d == nil {
		// The dialog closed in between: say what the snapshot said.
		d = &dom.DialogInfo{Type: "JavaScript", Message: cause.Error()}
	}
	const next = `a {"action":"dialog","accept":true} (or false) step closes it`
	if mode == "json" {
		return writeJSONLine(w, struct {
			Step    int             `json:"step"`
			Blocked string          `json:"blocked"`
			Dialog  *dom.DialogInfo `json:"dialog"`
		}{step, "no snapshot: a JavaScript " + d.Type + " dialog blocks the page; " + next, d})
	}
	_, err := fmt.Fprintf(w, "# no snapshot after step %d: a JavaScript %s dialog (%s) blocks the page; %s\n",
		step, d.Type, strconv.Quote(dom.Clip(d.Message, 200)), next)
	return err
}

// laterText is what changed by itself since the last step, as comment
// lines before a text snapshot ("" when nothing did).
func laterText(l *dom.Later) string {
	if l == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# since the last step (%.1f s after it):\n", l.AfterMs/1000)
	for _, line := range l.Flat {
		b.WriteString("# " + line + "\n")
	}
	if l.FlatMore > 0 {
		fmt.Fprintf(&b, "# … %d more\n", l.FlatMore)
	}
	for _, f := range l.Flashed {
		b.WriteString("# flashed: ")
		if f.Role != "" {
			b.WriteString(f.Role + " ")
		}
		fmt.Fprintf(&b, "%s (%.1f s)\n", quoteJSON(f.Text), f.Ms/1000)
	}
	return b.String()
}
