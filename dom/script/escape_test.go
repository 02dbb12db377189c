package script_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/script"
)

// unsafeRunes are the characters runes.html puts into page strings: C0
// and C1 controls, DEL, bidi overrides and isolates, zero-width
// characters. Also the BOM, the line separator, a soft hyphen and a tag
// character.
var unsafeRunes = []rune{0x07, 0x1b, 0x7f, 0x80, 0x85, 0x9b, 0x9f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
	0x2066, 0x2067, 0x2068, 0x2069, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0xfeff, 0x2028, 0xad, 0xe0041}

// runesMix is the string runes.html builds from unsafeRunes.
func runesMix() string {
	var b strings.Builder
	for _, r := range unsafeRunes {
		b.WriteByte('x')
		b.WriteRune(r)
	}
	b.WriteByte('x')
	return b.String()
}

// assertNoRawRunes fails when out holds any unsafe rune unescaped.
func assertNoRawRunes(t *testing.T, what string, out []byte) {
	t.Helper()
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && size == 1 {
			t.Fatalf("%s: invalid UTF-8 at byte %d", what, i)
		}
		for _, u := range unsafeRunes {
			if r == u {
				t.Fatalf("%s: raw U+%04X at byte %d: …%q…", what, r, i, out[max(0, i-20):min(len(out), i+20)])
			}
		}
		if r < 0x20 && r != '\n' {
			t.Fatalf("%s: raw control %#x at byte %d", what, r, i)
		}
		i += size
	}
}

// findSerialized returns the first serialized node with the given tag.
func findSerialized(l []*SerializedNode, tag string) *SerializedNode {
	for _, n := range l {
		if n.Tag == tag {
			return n
		}
		if c := findSerialized(n.Children, tag); c != nil {
			return c
		}
	}
	return nil
}

// TestJSONOutputsEscapeControls checks snapshot json and the lines of
// `run`: results, errors naming nodes, json snapshots. They carry no raw
// control, bidi or zero-width character from the page. They still decode
// to the page's strings. The text collapses U+0085 and U+2028 to spaces
// (they are white space). The href and the field value keep every
// character.
func TestJSONOutputsEscapeControls(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/runes.html", live.Config{})
	mix := runesMix()
	check := func(what string, sd *SerializedDom) {
		t.Helper()
		if a := findSerialized(sd.Nodes, "a"); a == nil || a.Href != "#h"+mix {
			t.Errorf("%s: the link's href did not decode to the page's: %+v", what, a)
		}
		if in := findSerialized(sd.Nodes, "input"); in == nil || in.Value != "Val "+mix {
			t.Errorf("%s: the field's value did not decode to the page's: %+v", what, in)
		}
		if b := findSerialized(sd.Nodes, "button"); b == nil || !strings.Contains(b.Name, "\u009bx\u009f") || !strings.Contains(b.Name, "\u202e") {
			t.Errorf("%s: the button's name lost its characters: %+v", what, b)
		}
	}

	opts := DefaultOptions()
	opts.IncludeValues = true
	sd, _ := flatten.Flatten(snap(t, svc), opts)
	out, err := flatten.FormatJSON(sd)
	if err != nil {
		t.Fatal(err)
	}
	assertNoRawRunes(t, "snapshot json", out)
	if !bytes.Contains(out, []byte(`\u009b`)) || !bytes.Contains(out, []byte(`\udb40\udc41`)) {
		t.Fatalf("snapshot json holds no escapes:\n%s", out)
	}
	var back SerializedDom
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("snapshot json does not decode: %v", err)
	}
	check("snapshot json", &back)

	// run: a step that works, one whose error lists candidates by name.
	_, text, _ := runLines(t, svc, script.Options{Snapshots: "json", KeepGoing: true, Flatten: &opts},
		`{"action":"click","target":{"css":"#btn"}}`,
		`{"action":"select","target":{"css":"#btn"},"value":"x"}`)
	assertNoRawRunes(t, "run output", []byte(text))
	snaps := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Step     int            `json:"step"`
			Action   string         `json:"action"`
			Snapshot *SerializedDom `json:"snapshot"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("run line does not decode: %v\n%s", err, sc.Text())
		}
		// A result line's "snapshot" says how it was taken. The line after
		// it (no "action") holds the snapshot itself.
		if line.Snapshot != nil && line.Action == "" {
			snaps++
			check("run snapshot", line.Snapshot)
		}
	}
	if snaps == 0 {
		t.Fatalf("run printed no json snapshot:\n%s", text)
	}
	// a dialog's message is page text in a result line
	res, text, err := runLines(t, svc, script.Options{}, `{"action":"click","target":{"css":"#alrt"}}`, `{"action":"dialog","accept":true}`)
	if err != nil {
		t.Fatalf("alert steps: %v\n%s", err, text)
	}
	assertNoRawRunes(t, "run output with a dialog", []byte(text))
	if len(res) == 0 || res[0].Dialog == nil || res[0].Dialog.Message != "Alert "+mix {
		t.Fatalf("the dialog's message did not decode to the page's: %s", text)
	}

	// an export too: it is JSON a person may cat
	var exp bytes.Buffer
	sc2, err := export.NewSavedCapture(snap(t, svc), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc2.Write(&exp); err != nil {
		t.Fatal(err)
	}
	assertNoRawRunes(t, "export", bytes.ReplaceAll(exp.Bytes(), []byte{'\n'}, nil))
	if _, err := export.ReadCapture(bytes.NewReader(exp.Bytes())); err != nil {
		t.Fatalf("the escaped export does not read back: %v", err)
	}
}
