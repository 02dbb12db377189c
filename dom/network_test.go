package dom_test

import (
	"testing"

	"domscope/dom"
)

func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://a.example/search?q=shoes&page=2", "https://a.example/search?q=…&page=…"},
		{"https://a.example/p", "https://a.example/p"},
		{"https://a.example/p?", "https://a.example/p?"},
		{"https://a.example/p?token=SECRET&x=1#frag=SECRET", "https://a.example/p?token=…&x=…"},
		{"https://a.example/p?SECRET&&k=", "https://a.example/p?…&&k=…"},
		{"https://user:SECRET@a.example/p?k=v", "https://a.example/p?k=…"},
		{"http://a.example?@SECRET", "http://a.example?…"},
		{"data:image/png;base64,SECRET", "data:image/png;base64,…"},
	} {
		if got := dom.RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

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
