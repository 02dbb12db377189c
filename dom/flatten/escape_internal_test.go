package flatten

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzEscapeJSON: escaping encoded JSON leaves no unsafe rune or invalid
// byte, and the JSON decodes to what it did before.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "a\u009bb", "\u202eevil\u202c", "\u200b\ufeff\u2060", "\U000e0041", "bad \xff\xfe utf8", "ok é 界 👩‍💻", "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := json.Marshal(map[string][]string{s: {s, "x"}})
		if err != nil {
			t.Skip()
		}
		out := EscapeJSON(in)
		for i := 0; i < len(out); {
			r, size := utf8.DecodeRune(out[i:])
			if (r == utf8.RuneError && size == 1) || jsonUnsafe(r) {
				t.Fatalf("unsafe byte or rune %U left at %d in %q", r, i, out)
			}
			i += size
		}
		var a, b any
		if err := json.Unmarshal(in, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("escaped JSON does not decode: %v: %q", err, out)
		}
		if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
			t.Fatalf("decoded differently: %s vs %s", ja, jb)
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
