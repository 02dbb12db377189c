package dom

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Viewport is the window an agent's browser has: its size in CSS pixels,
// device scale factor, mobile and touch emulation and user agent. The zero
// value is the browser's own window (no emulation).
type Viewport struct {
	Width     int     `json:"width,omitempty"`
	Height    int     `json:"height,omitempty"`
	Scale     float64 `json:"scale,omitempty"` // device scale factor; 0 keeps the browser's
	Mobile    bool    `json:"mobile,omitempty"`
	Touch     bool    `json:"touch,omitempty"`
	UserAgent string  `json:"userAgent,omitempty"`
	// Device names the entry of Devices this came from, for messages.
	Device string `json:"device,omitempty"`
}

// IsZero reports whether v asks for no emulation at all.
func (v Viewport) IsZero() bool { return v == Viewport{} }

// Limits on an emulated viewport, so a typo fails instead of asking the
// browser for a window it cannot draw.
const (
	MaxViewportSide = 10000
	MaxScale        = 10.0
)

// Devices are a few common phones and tablets, in portrait, with the
// metrics and user agents of chromedp's device list (from Puppeteer's).
var Devices = []Viewport{
	{Device: "iPhone SE", Width: 320, Height: 568, Scale: 2, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_1 like Mac OS X) AppleWebKit/603.1.30 (KHTML, like Gecko) Version/10.0 Mobile/14E304 Safari/602.1"},
	{Device: "iPhone 13", Width: 390, Height: 844, Scale: 3, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.4 Mobile/15E148 Safari/604.1"},
	{Device: "iPhone 13 Pro Max", Width: 428, Height: 926, Scale: 3, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.4 Mobile/15E148 Safari/604.1"},
	{Device: "iPhone 15 Pro", Width: 393, Height: 659, Scale: 3, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"},
	{Device: "Pixel 5", Width: 393, Height: 851, Scale: 3, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (Linux; Android 11; Pixel 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4812.0 Mobile Safari/537.36"},
	{Device: "Galaxy S8", Width: 360, Height: 740, Scale: 3, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (Linux; Android 7.0; SM-G950U Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/62.0.3202.84 Mobile Safari/537.36"},
	{Device: "iPad Mini", Width: 768, Height: 1024, Scale: 2, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (iPad; CPU OS 11_0 like Mac OS X) AppleWebKit/604.1.34 (KHTML, like Gecko) Version/11.0 Mobile/15A5341f Safari/604.1"},
	{Device: "iPad Pro 11", Width: 834, Height: 1194, Scale: 2, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.4 Mobile/15E148 Safari/604.1"},
	{Device: "Galaxy Tab S4", Width: 712, Height: 1138, Scale: 2.25, Mobile: true, Touch: true, UserAgent: "Mozilla/5.0 (Linux; Android 8.1.0; SM-T837A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.80 Safari/537.36"},
}

// DeviceNames lists the names of Devices, for messages.
func DeviceNames() string {
	names := make([]string, len(Devices))
	for i, d := range Devices {
		names[i] = fmt.Sprintf("%q", d.Device)
	}
	return strings.Join(names, ", ")
}

// LookupDevice finds a device by name, ignoring case, spaces and dashes
// ("iphone-13" is "iPhone 13"). The error lists the names.
func LookupDevice(name string) (Viewport, error) {
	key := deviceKey(name)
	for _, d := range Devices {
		if deviceKey(d.Device) == key {
			return d, nil
		}
	}
	return Viewport{}, Errorf(ValidationError, nil, "unknown device %q: use one of %s", name, DeviceNames())
}

func deviceKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

// ParseSize reads "WIDTHxHEIGHT" (CSS pixels, "390x844").
func ParseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		w, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			h, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil {
		return 0, 0, Errorf(ValidationError, nil, "viewport %q: give WIDTHxHEIGHT in CSS pixels, such as 1280x800 or 390x844", s)
	}
	if err := checkSize(w, h); err != nil {
		return 0, 0, err
	}
	return w, h, nil
}

func checkSize(w, h int) error {
	if w < 1 || h < 1 || w > MaxViewportSide || h > MaxViewportSide {
		return Errorf(ValidationError, nil, "viewport %dx%d: width and height must be 1 to %d CSS pixels", w, h, MaxViewportSide)
	}
	return nil
}

// Check reports what is wrong with v, if anything: a size given by half,
// out of range, or a bad scale.
func (v Viewport) Check() error {
	if (v.Width == 0) != (v.Height == 0) {
		return Errorf(ValidationError, nil, "viewport %dx%d: give both width and height", v.Width, v.Height)
	}
	if v.Width != 0 {
		if err := checkSize(v.Width, v.Height); err != nil {
			return err
		}
	}
	if math.IsNaN(v.Scale) || v.Scale < 0 || v.Scale > MaxScale || (v.Scale > 0 && v.Scale < 0.1) {
		return Errorf(ValidationError, nil, "scale %g: use a device scale factor from 0.1 to %g (1 is a plain screen, 2 or 3 a phone's)", v.Scale, MaxScale)
	}
	return nil
}

// Emulate makes the page's window v (the zero Viewport clears every
// override). The overrides belong to this DevTools session: they end when
// it detaches, so a user's own tab gets its window back.
func Emulate(ctx context.Context, s Session, v Viewport) error {
	if err := v.Check(); err != nil {
		return err
	}
	if v.IsZero() {
		for _, c := range []struct {
			method string
			params any
		}{
			{"Emulation.clearDeviceMetricsOverride", nil},
			{"Emulation.setTouchEmulationEnabled", map[string]any{"enabled": false}},
			// An empty user agent removes the override.
			{"Emulation.setUserAgentOverride", map[string]any{"userAgent": ""}},
		} {
			if err := s.Call(ctx, c.method, c.params, nil); err != nil {
				return fmt.Errorf("clearing the viewport emulation: %w", err)
			}
		}
		return nil
	}
	// Width and height 0 keep the window's own size (only the scale changes).
	metrics := map[string]any{
		"width": v.Width, "height": v.Height,
		"deviceScaleFactor": v.Scale,
		"mobile":            v.Mobile,
	}
	if err := s.Call(ctx, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
		return fmt.Errorf("setting the viewport to %s: %w", v, err)
	}
	touch := map[string]any{"enabled": v.Touch}
	if v.Touch {
		touch["maxTouchPoints"] = 5
	}
	if err := s.Call(ctx, "Emulation.setTouchEmulationEnabled", touch, nil); err != nil {
		return fmt.Errorf("setting touch emulation: %w", err)
	}
	if err := s.Call(ctx, "Emulation.setUserAgentOverride", map[string]any{"userAgent": v.UserAgent}, nil); err != nil {
		return fmt.Errorf("setting the user agent: %w", err)
	}
	return nil
}

// String describes v for messages: "iPhone 13 (390x844 @3, mobile)".
func (v Viewport) String() string {
	if v.IsZero() {
		return "the browser's own window"
	}
	var parts []string
	if v.Width > 0 {
		parts = append(parts, fmt.Sprintf("%dx%d", v.Width, v.Height))
	}
	if v.Scale > 0 {
		parts = append(parts, "@"+strconv.FormatFloat(v.Scale, 'g', -1, 64))
	}
	if v.Mobile {
		parts = append(parts, "mobile")
	}
	if v.Touch {
		parts = append(parts, "touch")
	}
	s := strings.Join(parts, " ")
	if v.Device != "" {
		return v.Device + " (" + s + ")"
	}
	return s
}
