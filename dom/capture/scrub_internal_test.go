package capture

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/dom"
)

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
		{`["autocomplete","ONE-TIME-CODE"]`, true},
		{`["autocomplete","one-t\u0130me-code"]`, true},
		{`["autocomplete","one-tİme-code"]`, true},
		{`["type","pa\u017f\u017fword"]`, true},
		{`["type","paſſword"]`, true},
		{`["autocomplete","section-x shipping New-Password"]`, true},
		{`one-time`, false},
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

// TestMayHoldSecretsAgreesWithSensitiveField: whatever SensitiveField
// calls sensitive, the quick pre-test lets through. That holds however
// the document writes the attribute: case, Unicode letters that fold to
// ASCII, JSON escapes.
func TestMayHoldSecretsAgreesWithSensitiveField(t *testing.T) {
	for _, a := range [][2]string{
		{"type", "password"}, {"type", "PASSWORD"}, {"type", " paſſword "}, {"type", "PAſSWORD"},
		{"autocomplete", "current-password"}, {"autocomplete", "NEW-PASSWORD"},
		{"autocomplete", "one-time-code"}, {"autocomplete", "ONE-TİME-CODE"},
		{"autocomplete", "section-x shipping cc-csc"}, {"autocomplete", "CC-NUMBER"},
	} {
		if !dom.SensitiveField("input", map[string]string{a[0]: a[1]}) {
			continue // not sensitive: nothing to check
		}
		b, _ := json.Marshal(map[string]any{"root": map[string]any{"attributes": []string{a[0], a[1]}}})
		esc := []byte(strings.ReplaceAll(strings.ReplaceAll(string(b), "ſ", `\u017F`), "İ", `\u0130`))
		for _, doc := range [][]byte{b, esc} {
			if !mayHoldSecrets(doc) {
				t.Errorf("mayHoldSecrets(%s) = false for a sensitive field", doc)
			}
		}
	}
}

// BenchmarkScrubCapture: the privacy step of a capture on the 10k-element
// recording. With no sensitive field, only the pre-test runs. With one,
// the document is parsed and every part of the target rewritten.
func BenchmarkScrubCapture(b *testing.B) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "captures", "synthetic-10000.json.gz"))
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to string }{
		{"none", "", ""},
		{"one-password", `"type","text"`, `"type","password"`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			doc := data
			if tc.from != "" {
				doc = bytes.Replace(data, []byte(tc.from), []byte(tc.to), 1)
			}
			b.ReportAllocs()
			for b.Loop() {
				var raw dom.RawCapture
				b.StopTimer()
				if err := json.Unmarshal(doc, &raw); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				Scrub(&raw)
			}
		})
	}
}
