package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"domscope/dom"
	"domscope/dom/live"
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
