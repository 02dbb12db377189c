package cdpjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"domscope/dom/internal/recordings"
)

// The scanner reads what encoding/json reads from the same bytes. The
// bytes are every recorded layout and replies written to stress it. Those
// hold escapes, brackets and quotes inside strings, unknown keys,
// exponents and negative numbers.
func TestDecodeSnapshotMatchesEncodingJSON(t *testing.T) {
	cases := recordings.Layouts(t)
	cases["hand"] = []byte(` {"extra":{"a":["]}\"",{"b":[1,[2,{}]]},"\\\\"]},
	  "strings" : ["plain", "esc \"q\" \\ \/ \u00e9 \ud83d\ude00 \n", "", "ends with \\"],
	  "documents":[{"documentURL":0,"frameId":3,"scrollOffsetX":-12.5,"scrollOffsetY":1e3,
	    "nodes":{"parentIndex":[-1,0],"nodeName":[1,2],"backendNodeId":[7,8],
	      "inputValue":{"index":[1],"value":[2]},"inputChecked":{"index":[]},"isClickable":{"index":[0]}},
	    "layout":{"nodeIndex":[0,1],"styles":[[0,1,2,3,-1],[]],"bounds":[[0,0,1280.25,800],[-3.5,1.25e2,0.1,123456789.125]],
	      "text":[-1,2],"stackingContexts":{"index":[0]}}},
	   {"documentURL":2,"frameId":2,"nodes":{},"layout":{}}]}`)
	for name, data := range cases {
		got, err := DecodeDOMSnapshot(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want DOMSnapshot
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
// hang. Odd but valid values read as the token decoder read them.
func TestDecodeSnapshotRejectsBrokenReplies(t *testing.T) {
	data := recordings.Layouts(t)["hidden.json#0"]
	if len(data) == 0 {
		t.Fatal("no layout in hidden.json")
	}
	for cut := 0; cut < len(data)-1; cut += 1 + cut/50 {
		if _, err := DecodeDOMSnapshot(data[:cut]); err == nil {
			t.Fatalf("a reply cut at %d of %d bytes read without an error", cut, len(data))
		}
	}
	for _, bad := range []string{`{"strings":[1,]}`, `{"documents":[{"layout":{"bounds":[[1,2}]}}]}`, `{"a" 1}`, `{"a":1}}`, `]`, `{"strings":["x]}`, `{"documents":[{"nodes":{"backendNodeId":[1 2]}}]}`} {
		if _, err := DecodeDOMSnapshot([]byte(bad)); err == nil {
			t.Errorf("%s read without an error", bad)
		}
	}
	got, err := DecodeDOMSnapshot([]byte("{\"strings\":[\"a\xffb\", 5, null],\"documents\":[{\"frameId\":\"x\",\"documentURL\":2.9,\"scrollOffsetX\":true}]}"))
	if err != nil {
		t.Fatal(err)
	}
	want := &DOMSnapshot{Strings: []string{"a\ufffdb", "", ""}, Documents: []SnapDocument{{DocumentURL: 2}}}
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
		_, _ = DecodeDOMSnapshot(data)
	})
}

func BenchmarkDecodeSnapshot10k(b *testing.B) {
	data := recordings.Layouts(b)["synthetic-10000.json.gz#0"]
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := DecodeDOMSnapshot(data); err != nil {
			b.Fatal(err)
		}
	}
}
