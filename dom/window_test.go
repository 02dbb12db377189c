package dom_test

import (
	"testing"

	"domscope/dom"
)

func TestLookupDeviceAndSize(t *testing.T) {
	d, err := dom.LookupDevice("iphone-13")
	if err != nil || d.Device != "iPhone 13" || d.Width != 390 || d.Height != 844 || !d.Mobile || !d.Touch || d.UserAgent == "" {
		t.Errorf("LookupDevice(iphone-13) = %+v, %v", d, err)
	}
	if _, err := dom.LookupDevice("Nokia 3310"); dom.CodeOf(err) != dom.ValidationError {
		t.Errorf("unknown device: %v, want a VALIDATION_ERROR", err)
	}
	for _, s := range []string{"390x844", " 1280X800 "} {
		if _, _, err := dom.ParseSize(s); err != nil {
			t.Errorf("ParseSize(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "390", "0x10", "x", "10x-1", "20000x10", "a x b"} {
		if _, _, err := dom.ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) accepted", s)
		}
	}
}
