package dom

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// recordedCaptures are the recorded captures (testdata/captures) by name.
func recordedCaptures(t testing.TB) map[string]*RawCapture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "captures", "*.json*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded captures: %v", err)
	}
	out := map[string]*RawCapture{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		var raw RawCapture
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = &raw
	}
	return out
}

// recordedLayouts are the DOMSnapshot replies of every recorded capture,
// one per target, by capture name.
func recordedLayouts(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, raw := range recordedCaptures(t) {
		for i, tg := range raw.Targets {
			if len(tg.Layout) > 0 {
				out[name+"#"+string(rune('0'+i))] = tg.Layout
			}
		}
	}
	return out
}

// The scanner reads what encoding/json reads from the same bytes: every
// recorded layout, and replies written to stress it (escapes, brackets and
// quotes inside strings, unknown keys, exponents, negative numbers).
func TestDecodeSnapshotMatchesEncodingJSON(t *testing.T) {
	cases := recordedLayouts(t)
	cases["hand"] = []byte(` {"extra":{"a":["]}\"",{"b":[1,[2,{}]]},"\\\\"]},
	  "strings" : ["plain", "esc \"q\" \\ \/ \u00e9 \ud83d\ude00 \n", "", "ends with \\"],
	  "documents":[{"documentURL":0,"frameId":3,"scrollOffsetX":-12.5,"scrollOffsetY":1e3,
	    "nodes":{"parentIndex":[-1,0],"nodeName":[1,2],"backendNodeId":[7,8],
	      "inputValue":{"index":[1],"value":[2]},"inputChecked":{"index":[]},"isClickable":{"index":[0]}},
	    "layout":{"nodeIndex":[0,1],"styles":[[0,1,2,3,-1],[]],"bounds":[[0,0,1280.25,800],[-3.5,1.25e2,0.1,123456789.125]],
	      "text":[-1,2],"stackingContexts":{"index":[0]}}},
	   {"documentURL":2,"frameId":2,"nodes":{},"layout":{}}]}`)
	for name, data := range cases {
		got, err := decodeSnapshot(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want snapCapture
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: encoding/json: %v", name, err)
		}
		// compared as JSON, an empty column and a missing one alike
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(&want)
		gs, ws := strings.ReplaceAll(string(g), "null", "[]"), strings.ReplaceAll(string(w), "null", "[]")
		if gs != ws {
			i := 0
			for i < len(gs) && i < len(ws) && gs[i] == ws[i] {
				i++
			}
			t.Errorf("%s: the scanner and encoding/json differ at byte %d:\n%.200s\n%.200s", name, i, gs[max(0, i-60):], ws[max(0, i-60):])
		}
	}
}

// Cut short or broken anywhere, a reply is an error, never a panic or a
// hang; and odd but valid values read as the token decoder read them.
func TestDecodeSnapshotRejectsBrokenReplies(t *testing.T) {
	data := recordedLayouts(t)["hidden.json#0"]
	if len(data) == 0 {
		t.Fatal("no layout in hidden.json")
	}
	for cut := 0; cut < len(data)-1; cut += 1 + cut/50 {
		if _, err := decodeSnapshot(data[:cut]); err == nil {
			t.Fatalf("a reply cut at %d of %d bytes read without an error", cut, len(data))
		}
	}
	for _, bad := range []string{`{"strings":[1,]}`, `{"documents":[{"layout":{"bounds":[[1,2}]}}]}`, `{"a" 1}`, `{"a":1}}`, `]`, `{"strings":["x]}`, `{"documents":[{"nodes":{"backendNodeId":[1 2]}}]}`} {
		if _, err := decodeSnapshot([]byte(bad)); err == nil {
			t.Errorf("%s read without an error", bad)
		}
	}
	got, err := decodeSnapshot([]byte("{\"strings\":[\"a\xffb\", 5, null],\"documents\":[{\"frameId\":\"x\",\"documentURL\":2.9,\"scrollOffsetX\":true}]}"))
	if err != nil {
		t.Fatal(err)
	}
	want := &snapCapture{Strings: []string{"a\ufffdb", "", ""}, Documents: []snapDocument{{DocumentURL: 2}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("odd values: got %+v, want %+v", got, want)
	}
}

// FuzzDecodeSnapshot: any bytes give a result or an error, never a panic.
func FuzzDecodeSnapshot(f *testing.F) {
	f.Add([]byte(`{"strings":["a\"]"],"documents":[{"layout":{"nodeIndex":[0],"styles":[[1]],"bounds":[[1.5,-2e1]]}}]}`))
	f.Add([]byte(`{"documents":[{"nodes":{"backendNodeId":[99999999999999999999,-1]}}]}`))
	f.Add([]byte(`[[[[{"":"\\`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeSnapshot(data)
	})
}

func BenchmarkDecodeSnapshot10k(b *testing.B) {
	data := recordedLayouts(b)["synthetic-10000.json.gz#0"]
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeSnapshot(data); err != nil {
			b.Fatal(err)
		}
	}
}
