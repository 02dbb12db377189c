package tabs_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/tabs"
)

func TestPick(t *testing.T) {
	open := []dom.TargetInfo{
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
		got, err := tabs.Pick(open, tc.spec)
		if tc.code != "" {
			if err == nil || dom.CodeOf(err) != tc.code {
				t.Errorf("Pick(%q) = %v, %v; want code %s", tc.spec, got.ID, err, tc.code)
			}
			continue
		}
		if err != nil || got.ID != tc.want {
			t.Errorf("Pick(%q) = %q, %v; want %q", tc.spec, got.ID, err, tc.want)
		}
	}
	if _, err := tabs.Pick(nil, ""); dom.CodeOf(err) != dom.TargetNotFound {
		t.Errorf("no tabs: got %v", err)
	}
}

// TestPickOrder: one order for every front door. An id wins over an
// index, an index over a URL, a URL over a title.
func TestPickOrder(t *testing.T) {
	open := []dom.TargetInfo{
		{ID: "1", URL: "https://b.test/", Title: "Numbered"},
		{ID: "AAA111", URL: "https://a.test/1", Title: "Cart"},
		{ID: "CCC333", URL: "https://c.test/cart", Title: "Shop"},
	}
	for _, tc := range []struct{ spec, want string }{
		{"1", "1"},             // the id "1", not the tab at index 1
		{"2", "CCC333"},        // an index
		{"cart", "CCC333"},     // the URL's match, not the title's
		{"numbered", "1"},      // a title alone
		{" AAA111 ", "AAA111"}, // spaces trimmed
	} {
		got, err := tabs.Pick(open, tc.spec)
		if err != nil || got.ID != tc.want {
			t.Errorf("Pick(%q) = %q, %v; want %q", tc.spec, got.ID, err, tc.want)
		}
	}
}
