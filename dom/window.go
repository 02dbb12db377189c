package dom

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chromedp/chromedp/device"
)

// Viewport is the window an agent's browser has. It holds its size in CSS
// pixels, device scale factor, mobile and touch emulation and user agent.
// The zero value is the browser's own window (no emulation).
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

// Limits on an emulated viewport. A typo fails instead of asking the
// browser for a window it cannot draw.
const (
	MaxViewportSide = 10000
	MaxScale        = 10.0
)

// Devices are a few common phones and tablets, in portrait, from
// chromedp's device table (Puppeteer's list). That table is a data package
// that imports nothing.
var Devices = fromDeviceTable(device.IPhoneSE, device.IPhone13, device.IPhone13ProMax, device.IPhone15Pro,
	device.Pixel5, device.GalaxyS8, device.IPadMini, device.IPadPro11, device.GalaxyTabS4)

func fromDeviceTable(ds ...interface{ Device() device.Info }) []Viewport {
	out := make([]Viewport, len(ds))
	for i, d := range ds {
		in := d.Device()
		out[i] = Viewport{Device: in.Name, Width: int(in.Width), Height: int(in.Height), Scale: in.Scale,
			Mobile: in.Mobile, Touch: in.Touch, UserAgent: in.UserAgent}
	}
	return out
}

// DeviceNames lists the names of Devices, for messages.
func DeviceNames() string {
	names := make([]string, len(Devices))
	for i, d := range Devices {
		names[i] = fmt.Sprintf("%q", d.Device)
	}
	return strings.Join(names, ", ")
}

// LookupDevice finds a device by name, ignoring case, spaces and dashes.
// So "iphone-13" is "iPhone 13". The error lists the names.
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
	if err := CheckSize(w, h); err != nil {
		return 0, 0, err
	}
	return w, h, nil
}

// sizeRule says what a viewport size may be, in every message about one.
var sizeRule = fmt.Sprintf("width and height must be 1 to %d CSS pixels each, such as 1280x800 or 390x844", MaxViewportSide)

// CheckSize reports a viewport size out of range. It uses the words that
// --viewport and a script's viewport step both use.
func CheckSize(w, h int) error {
	if w < 1 || h < 1 || w > MaxViewportSide || h > MaxViewportSide {
		return Errorf(ValidationError, nil, "viewport %dx%d: %s", w, h, sizeRule)
	}
	return nil
}

// Check reports what is wrong with v, if anything: a size given by half
// or out of range, or a bad scale.
func (v Viewport) Check() error {
	if (v.Width == 0) != (v.Height == 0) {
		return Errorf(ValidationError, nil, "viewport %dx%d: give both width and height", v.Width, v.Height)
	}
	if v.Width != 0 {
		if err := CheckSize(v.Width, v.Height); err != nil {
			return err
		}
	}
	if math.IsNaN(v.Scale) || v.Scale < 0 || v.Scale > MaxScale || (v.Scale > 0 && v.Scale < 0.1) {
		return Errorf(ValidationError, nil, "scale %g: use a device scale factor from 0.1 to %g (1 is a plain screen, 2 or 3 a phone's)", v.Scale, MaxScale)
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
