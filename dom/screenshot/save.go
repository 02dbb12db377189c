package screenshot

import (
	"context"
	"fmt"
	"image/png"
	"io"

	"domscope/dom"
)

// Save saves p's viewport as a PNG at its CSS size, sensitive fields of
// snap painted over. With marks, it draws the numbered boxes of the
// flattened view's nodes (sd) on it and lists on w those not on it.
func Save(ctx context.Context, p dom.Page, snap *dom.Snapshot, sd *dom.SerializedDom, path string, marks bool, w io.Writer) error {
	var known SensitiveNodes
	known.Add(snap)
	pic, err := Screenshot(ctx, p, &known)
	if err != nil {
		return err
	}
	if marks {
		fmt.Fprintln(w, MarkUp(snap, sd, pic, "screenshot", 0))
	}
	f, err := dom.CreatePrivate(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, pic.Image); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
