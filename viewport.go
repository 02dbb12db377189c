package main

import (
	"context"
	"fmt"
	"image/png"
	"io"

	"github.com/spf13/pflag"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/screenshot"
)

// registerViewport adds the flags that emulate the agent's window.
func (c *connFlags) registerViewport(fs *pflag.FlagSet) {
	fs.StringVar(&c.viewport, "viewport", "", "emulate a window of WIDTHxHEIGHT CSS pixels, such as 1280x800")
	fs.StringVar(&c.device, "device", "", "emulate a phone or tablet (size, scale, mobile, touch, user agent): "+dom.DeviceNames())
	fs.Float64Var(&c.scale, "scale", 0, "device scale factor to emulate (1, 2, 3…; 0 keeps the browser's)")
}

// emulation is the window the flags ask for (the zero Viewport for none).
// A bad value is a usage error that says what is allowed.
func (c *connFlags) emulation() (dom.Viewport, error) {
	var vp dom.Viewport
	if c.device != "" {
		d, err := dom.LookupDevice(c.device)
		if err != nil {
			return vp, usageError{fmt.Sprintf("--device %q: use one of %s", c.device, dom.DeviceNames())}
		}
		vp = d
	}
	if c.viewport != "" {
		w, h, err := dom.ParseSize(c.viewport)
		if err != nil {
			// dom's words, as a script's viewport step gets them
			return vp, usageError{"--" + dom.ErrorOf(err).Message}
		}
		vp.Width, vp.Height = w, h
	}
	if c.scale != 0 {
		vp.Scale = c.scale
		if err := vp.Check(); err != nil {
			return vp, usageError{fmt.Sprintf("--scale %g: use a device scale factor from 0.1 to %g", c.scale, dom.MaxScale)}
		}
	}
	return vp, nil
}

// emulate applies vp to a freshly attached page (nothing for none).
func emulate(ctx context.Context, p dom.Page, vp dom.Viewport) error {
	if vp.IsZero() {
		return nil
	}
	return live.Emulate(ctx, p, vp)
}

// writeScreenshot saves the page's viewport as a PNG at its CSS size.
// With marks, it draws the numbered boxes of the flattened view's nodes
// on it. It lists on w the marks that are not on the picture.
func writeScreenshot(ctx context.Context, p dom.Page, snap *dom.Snapshot, sd *dom.SerializedDom, path string, marks bool, w io.Writer) error {
	var known screenshot.SensitiveNodes
	known.Add(snap)
	pic, err := screenshot.Screenshot(ctx, p, &known)
	if err != nil {
		return err
	}
	if marks {
		fmt.Fprintln(w, screenshot.MarkUp(snap, sd, pic, "screenshot", 0))
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
