package export

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
)

func exportFixture(t *testing.T) *dom.Snapshot {
	t.Helper()
	raw := &dom.RawCapture{Version: 1, URL: "http://127.0.0.1/x", Title: "X", TargetID: "T1",
		Timestamp: "2026-11-22T18:00:00Z",
		Targets: []dom.RawTarget{{TargetID: "T1", FrameID: "F1", URL: "http://127.0.0.1/x",
			Document: json.RawMessage(`{"root":{"nodeId":1,"backendNodeId":1,"nodeType":9,"nodeName":"#document","localName":"","nodeValue":"","children":[]}}`)}}}
	s, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSavedCaptureRoundTrip(t *testing.T) {
	s := exportFixture(t)
	opts := dom.DefaultOptions()
	opts.Disabled = map[string]bool{"hoist-structural": true}
	last := &dom.ActionResult{Action: "click", ID: "node_3", Error: dom.Errorf(dom.Occluded, nil, "covered by div#overlay")}
	c, err := NewSavedCapture(s, opts, map[string]bool{"heuristic:onclick": true, "off": false}, last)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cap.json")
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCaptureFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != s.URL || got.Title != s.Title || got.Raw.TargetID != "T1" {
		t.Errorf("round trip lost the page: %+v", got)
	}
	if strings.Join(got.TierDisabled, ",") != "heuristic:onclick" {
		t.Errorf("TierDisabled = %v", got.TierDisabled)
	}
	if !got.FlattenOptions().Disabled["hoist-structural"] {
		t.Errorf("flatten rules lost: %v", got.FlattenDisabled)
	}
	if got.LastAction == nil || got.LastAction.Error == nil || got.LastAction.Error.Code != dom.Occluded {
		t.Errorf("last action lost: %+v", got.LastAction)
	}
	snap, err := got.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if snap.URL != s.URL || snap.Root == nil {
		t.Errorf("rebuilt snapshot: %+v", snap)
	}
	if snap.Taken.IsZero() {
		t.Error("rebuilt snapshot has no time")
	}
}

// The file is gzip-compressed and reads back. An uncompressed export of
// an older version opens the same way, and so does a gzip one renamed to
// .json.
func TestExportCompressedAndOldFilesOpen(t *testing.T) {
	c, err := NewSavedCapture(exportFixture(t), dom.DefaultOptions(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gz := filepath.Join(dir, "cap.json")
	if err := c.WriteFile(gz); err != nil {
		t.Fatal(err)
	}
	zipped, err := os.ReadFile(gz)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(zipped, []byte{0x1f, 0x8b}) {
		t.Fatalf("the export is not gzip: % x", zipped[:min(4, len(zipped))])
	}
	var plain bytes.Buffer
	if err := c.Write(&plain); err != nil {
		t.Fatal(err)
	}
	if len(zipped) >= plain.Len() {
		t.Errorf("compressed %d bytes, plain %d", len(zipped), plain.Len())
	}
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, plain.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{gz, old} {
		got, err := ReadCaptureFile(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got.Text != c.Text || got.Tokens != c.Tokens {
			t.Errorf("%s: text %q tokens %d, want %q %d", path, got.Text, got.Tokens, c.Text, c.Tokens)
		}
	}
	if _, err := ReadCapture(bytes.NewReader(zipped[:len(zipped)/2])); err == nil {
		t.Error("a cut gzip file should fail to open")
	}
	// Cut files on disk: their gzip trailer is gone (the last 4 bytes are
	// from the middle), or the JSON ends early. Each is a clear error.
	for _, cut := range []int{len(zipped) / 2, len(zipped) - 4, len(zipped) - 1} {
		path := filepath.Join(dir, "cut.json.gz")
		if err := os.WriteFile(path, zipped[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadCaptureFile(path); err == nil || dom.CodeOf(err) != dom.ValidationError {
			t.Errorf("a gzip file cut at %d of %d bytes: %v, want a VALIDATION_ERROR", cut, len(zipped), err)
		}
	}
	if err := os.WriteFile(old, plain.Bytes()[:plain.Len()/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCaptureFile(old); err == nil || dom.CodeOf(err) != dom.ValidationError {
		t.Errorf("a plain file cut in half: %v, want a VALIDATION_ERROR", err)
	}
}

func TestReadCaptureErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"garbage", "not json", "not a domscope capture"},
		{"future version", `{"version": 99, "raw": {"targets": [{}]}}`, "version 99"},
		{"no raw data", `{"version": 1}`, "no raw CDP data"},
		{"empty object", `{}`, "not a domscope capture"},
	}
	for _, tc := range tests {
		_, err := ReadCapture(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		if dom.CodeOf(err) != dom.ValidationError {
			t.Errorf("%s: code %v", tc.name, dom.CodeOf(err))
		}
	}
	if _, err := ReadCaptureFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "no capture file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := NewSavedCapture(nil, dom.DefaultOptions(), nil, nil); err == nil {
		t.Error("exporting nothing should fail")
	}
}

func TestWriteFileLeavesNoTempOnError(t *testing.T) {
	dir := t.TempDir()
	c := &SavedCapture{Version: 1, Raw: &dom.RawCapture{}}
	if err := c.WriteFile(filepath.Join(dir, "no", "such", "dir", "x.json")); err == nil {
		t.Fatal("writing into a missing directory should fail")
	}
	var buf bytes.Buffer
	if err := c.Write(&buf); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left files behind: %v", entries)
	}
}
