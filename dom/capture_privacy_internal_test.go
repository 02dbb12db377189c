package dom

import "testing"

func TestMayHoldSecrets(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{`["type","password"]`, true},
		{`["type","PassWord"]`, true},
		{`["autocomplete","billing CC-number"]`, true},
		{`["autocomplete","cc-exp"]`, true},
		{`password`, true},
		{`["type","text"],"shadowRoots":[],"aria-label":"x"`, false},
		{`passwor`, false},
		{`c-`, false},
		{``, false},
	} {
		if got := mayHoldSecrets([]byte(tc.doc)); got != tc.want {
			t.Errorf("mayHoldSecrets(%q) = %v", tc.doc, got)
		}
	}
}

func TestScrubJSON(t *testing.T) {
	in := []byte(`{"value":"hunter22","name":"my hunter22 pw","list":["x","hunter22"],"hunter22":1,"n":3}`)
	out := string(scrubJSON(in, []string{"hunter22"}))
	want := `{"value":"","name":"my  pw","list":["x",""],"hunter22":1,"n":3}`
	if out != want {
		t.Errorf("scrubJSON = %s\nwant %s", out, want)
	}
	// A short secret is removed only where a whole string equals it.
	out = string(scrubJSON([]byte(`["ab","cab","ab"]`), []string{"ab"}))
	if out != `["","cab",""]` {
		t.Errorf("short secret: %s", out)
	}
	// No secret inside: the blob comes back as it was.
	same := []byte(`{"a": 1}`)
	if got := scrubJSON(same, []string{"zzzz"}); string(got) != string(same) {
		t.Errorf("unchanged blob was rewritten: %s", got)
	}
}
