package cdpconn_test

import (
	"testing"

	"domscope/cdpconn"
	"domscope/dom"
)

func TestPickTarget(t *testing.T) {
	tabs := []dom.TargetInfo{
		{ID: "AAA111", URL: "https://example.com/login", Title: "Sign in"},
		{ID: "BBB222", URL: "https://example.com/cart", Title: "Cart"},
		{ID: "CCC333", URL: "http://127.0.0.1:8080/", Title: "Local"},
	}
	for _, tc := range []struct {
		spec, want string
		code       dom.Code
	}{
		{"", "AAA111", ""},
		{"BBB222", "BBB222", ""},
		{"2", "CCC333", ""},
		{"7", "", dom.TargetNotFound},
		{"-1", "", dom.TargetNotFound},
		{"cart", "BBB222", ""},
		{"127.0.0.1", "CCC333", ""},
		{"example.com", "", dom.TargetNotFound}, // ambiguous
		{"sign in", "AAA111", ""},               // title
		{"nothing", "", dom.TargetNotFound},
	} {
		got, err := cdpconn.PickTarget(tabs, tc.spec)
		if tc.code != "" {
			if err == nil || dom.CodeOf(err) != tc.code {
				t.Errorf("PickTarget(%q) = %v, %v; want code %s", tc.spec, got.ID, err, tc.code)
			}
			continue
		}
		if err != nil || got.ID != tc.want {
			t.Errorf("PickTarget(%q) = %q, %v; want %q", tc.spec, got.ID, err, tc.want)
		}
	}
	if _, err := cdpconn.PickTarget(nil, ""); dom.CodeOf(err) != dom.TargetNotFound {
		t.Errorf("no tabs: got %v", err)
	}
}
