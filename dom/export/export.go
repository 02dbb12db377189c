// Package export saves a snapshot as a file `domscope open` reads back.
// The file holds the raw capture, outputs, decisions, node IDs and the
// session's steps. The package rebuilds the tree from it without a
// browser.
package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	"domscope/dom/urls"
)

// SavedCaptureVersion is the version of the file format written by WriteFile.
const SavedCaptureVersion = 1

// SavedCapture is one capture as the TUI exports it (`e`) and `domscope
// open` reads it. It holds the raw CDP data, enough to rebuild everything
// without a browser. It adds what domscope made of it. So people and
// other tools can read the file without running domscope.
type SavedCapture struct {
	Version int    `json:"version"`
	SavedAt string `json:"savedAt"` // RFC 3339
	Note    string `json:"note,omitempty"`
	URL     string `json:"url"`
	Title   string `json:"title"`

	// TierDisabled and FlattenDisabled are the rules switched off when
	// the capture was saved. Loading rebuilds with the same rules.
	TierDisabled    []string `json:"tierDisabled,omitempty"`
	FlattenDisabled []string `json:"flattenDisabled,omitempty"`

	Raw       *dom.RawCapture          `json:"raw"`
	Tree      string                   `json:"tree"` // FormatTree
	Flat      json.RawMessage          `json:"flat"` // FormatJSON
	Text      string                   `json:"text"` // FormatText
	Tokens    int                      `json:"tokens"`
	Decisions map[string]SavedDecision `json:"decisions"`
	// LastAction is the result of the last action before saving, if any.
	// It is often the reason the capture was saved.
	LastAction *dom.ActionResult `json:"lastAction,omitempty"`
	// LastActionDesc says what that action was, as the TUI showed it
	// (`type "a@b.c\n" on node_6`).
	LastActionDesc string `json:"lastActionDesc,omitempty"`

	// IDs gives the rebuilt nodes the IDs the live page showed. Files from
	// older versions lack it and are numbered afresh.
	IDs *SavedIDs `json:"ids,omitempty"`
	// Session is the session's action log up to the save (see SessionStep).
	Session []dom.SessionStep `json:"session,omitempty"`
	// Picture is the page's last picture (P), masked; see SetPicture.
	Picture *SavedPicture `json:"picture,omitempty"`

	// first is the tree built when the file was read. The first Snapshot
	// call returns it.
	first *dom.Snapshot
}

// SavedDecision is a Decision in readable form.
type SavedDecision struct {
	Kind string `json:"kind"` // keep, hoist, drop
	Rule string `json:"rule,omitempty"`
	Into string `json:"into,omitempty"`
}

// NewSavedCapture records snapshot s flattened with opts. tierDisabled are
// the tier rules that were off when s was built. last may be nil.
func NewSavedCapture(s *dom.Snapshot, opts dom.Options, tierDisabled map[string]bool, last *dom.ActionResult) (*SavedCapture, error) {
	if !s.HasCapture() {
		return nil, dom.Errorf(dom.ValidationError, nil, "nothing to export: there is no snapshot with raw capture data yet (press r to take one)")
	}
	raw, err := s.Capture()
	if err != nil {
		return nil, err
	}
	if raw != s.Raw {
		// Written out from the live model. The capture's scrub never saw
		// its events and fetches (a new frame, a link's AX url).
		capture.ScrubURLs(raw)
	}
	sd, dec := flatten.Flatten(s, opts)
	flat, err := flatten.FormatJSON(sd)
	if err != nil {
		return nil, dom.Errorf(dom.ValidationError, err, "could not serialize the flattened view")
	}
	text := flatten.FormatText(sd)
	c := &SavedCapture{
		Version:         SavedCaptureVersion,
		SavedAt:         time.Now().UTC().Format(time.RFC3339),
		URL:             urls.Safe(s.URL),
		Title:           s.Title,
		TierDisabled:    names(tierDisabled),
		FlattenDisabled: names(opts.Disabled),
		Raw:             raw,
		Tree:            flatten.FormatTree(s, dec),
		Flat:            flat,
		Text:            text,
		Tokens:          flatten.CountTokens(text),
		Decisions:       make(map[string]SavedDecision, dec.Len()),
		LastAction:      last,
		IDs:             saveIDs(s),
	}
	for id, d := range dec.All() {
		c.Decisions[id] = SavedDecision{Kind: d.Kind.String(), Rule: d.Rule, Into: d.Into}
	}
	return c, nil
}

func names(m map[string]bool) []string {
	var out []string
	for k, on := range m {
		if on {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func set(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Write writes c as indented JSON. Characters a terminal could act on are
// escaped: an export may well be read with cat.
func (c *SavedCapture) Write(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(c); err != nil {
		return err
	}
	_, err := w.Write(flatten.EscapeJSON(b.Bytes()))
	return err
}

// WriteFile writes c to path atomically: a temporary file renamed into
// place. So an interrupted export never leaves half a file. The file is
// gzip-compressed. The raw capture of a large page is mostly repeated
// keys and class names: 190 MB of JSON on a 50,000-element page. `zcat`
// shows it. ReadCaptureFile reads it and the uncompressed files of older
// versions alike.
func (c *SavedCapture) WriteFile(path string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".domscope-export-*")
	if err != nil {
		return dom.Errorf(dom.ValidationError, err, "cannot write in %s", dir)
	}
	tmp := f.Name()
	defer os.Remove(tmp)                            // no-op after a successful rename
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed) // the level is valid
	if err := c.Write(zw); err != nil {
		f.Close()
		return dom.Errorf(dom.ValidationError, err, "writing %s", path)
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return dom.Errorf(dom.ValidationError, err, "writing %s", path)
	}
	if err := f.Close(); err != nil {
		return dom.Errorf(dom.ValidationError, err, "writing %s", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return dom.Errorf(dom.ValidationError, err, "saving %s", path)
	}
	return nil
}

// ExportReader reads an export as JSON, uncompressing it when it is gzip.
// Its first bytes tell, not its name, so a renamed file still opens. It
// reads as a stream and fails with a clear error past MaxCaptureSize.
func ExportReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, dom.Errorf(dom.ValidationError, err, "not a domscope capture file (a damaged gzip header)")
		}
		return &capReader{r: zr, left: MaxCaptureSize}, nil
	}
	return &capReader{r: br, left: MaxCaptureSize}, nil
}

// ReadCapture decodes a saved capture, compressed or not, and checks that
// it can be rebuilt.
func ReadCapture(r io.Reader) (*SavedCapture, error) {
	r, err := ExportReader(r)
	if err != nil {
		return nil, err
	}
	b, err := readChunked(r)
	if err != nil {
		return nil, readErr(err)
	}
	return decodeCapture(b)
}

// decodeCapture decodes the JSON of a saved capture and cleans it.
func decodeCapture(b []byte) (*SavedCapture, error) {
	var c SavedCapture
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, dom.Errorf(dom.ValidationError, err, "not a domscope capture file (expected the JSON written by `e` in domscope)")
	}
	if c.Version == 0 {
		return nil, dom.Errorf(dom.ValidationError, nil, "not a domscope capture file (no version; expected the JSON written by `e` in domscope)")
	}
	if c.Version > SavedCaptureVersion {
		return nil, dom.Errorf(dom.ValidationError, nil, "capture file version %d is not supported (this domscope reads version %d)", c.Version, SavedCaptureVersion)
	}
	if c.Raw == nil || len(c.Raw.Targets) == 0 {
		return nil, dom.Errorf(dom.ValidationError, nil, "the capture file holds no raw CDP data to rebuild from")
	}
	// A file saved by an older domscope may hold values the scrub now
	// removes (a wider rule, inline text boxes). A file edited by hand or
	// written by another program may hold text typed into a sensitive
	// field. Or a URL with a password. Clean it before anything shows it or
	// saves it again.
	secrets := capture.ScrubSecrets(c.Raw)
	c.safeURLs()
	var snap *dom.Snapshot
	if c.needsTree() {
		// The saved page says which fields are sensitive. The tree is
		// kept for the first Snapshot call (open builds it once).
		if s, err := c.build(); err == nil {
			snap, c.first = s, s
		}
	}
	c.scrubSession(snap, secrets)
	return &c, nil
}

// ReadCaptureFile reads a capture saved with WriteFile, or an older,
// uncompressed one. MaxCaptureSize bounds its size once uncompressed. A
// file whose size or gzip trailer says it is bigger is refused before it
// is read. Else it is refused as soon as that much has come out. Its JSON
// is read into one buffer of the size announced. So memory stays near
// what the file really holds.
func ReadCaptureFile(path string) (*SavedCapture, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, dom.Errorf(dom.ValidationError, err, "no capture file at %s", path)
		}
		return nil, dom.Errorf(dom.ValidationError, err, "cannot open %s", path)
	}
	defer f.Close()
	c, err := readCaptureFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

func readCaptureFile(f *os.File) (*SavedCapture, error) {
	want, known := captureSize(f)
	if known && want > MaxCaptureSize {
		return nil, dom.Errorf(dom.ValidationError, nil, "the capture file says it holds %d MiB once uncompressed, over the %d MiB a domscope export may have (or it is cut short): refusing it", want>>20, MaxCaptureSize>>20)
	}
	r, err := ExportReader(f)
	if err != nil {
		return nil, err
	}
	var b []byte
	if known {
		b, err = readSized(r, want)
	} else {
		b, err = readChunked(r)
	}
	if err != nil {
		return nil, readErr(err)
	}
	return decodeCapture(b)
}

// Snapshot rebuilds the VirtualNode tree from the raw data. It uses the
// tier rules that were off when it was saved, and the IDs it had.
func (c *SavedCapture) Snapshot() (*dom.Snapshot, error) {
	if s := c.first; s != nil {
		c.first = nil
		return s, nil
	}
	return c.build()
}

func (c *SavedCapture) build() (*dom.Snapshot, error) {
	s, err := build.Build(c.Raw, build.Options{Prev: c.IDs.prev(), Disabled: c.TierDisabledSet()})
	if err != nil {
		return nil, err
	}
	if t, err := time.Parse(time.RFC3339, c.Raw.Timestamp); err == nil && s.Taken.IsZero() {
		s.Taken = t
	}
	return s, nil
}

// TierDisabledSet returns the tier rules switched off at save time as a set.
func (c *SavedCapture) TierDisabledSet() map[string]bool { return set(c.TierDisabled) }

// FlattenOptions returns the default options. The flatten rules that were
// off at save time are switched off again.
func (c *SavedCapture) FlattenOptions() dom.Options {
	o := dom.DefaultOptions()
	o.Disabled = set(c.FlattenDisabled)
	return o
}

// SessionLog returns the session's action log saved with the capture,
// oldest first. Each result's Duration is restored. It is nil for files
// without one.
func (c *SavedCapture) SessionLog() []dom.SessionStep {
	out := make([]dom.SessionStep, len(c.Session))
	copy(out, c.Session)
	for i := range out {
		if r := out[i].Result; r != nil && r.Duration == 0 && r.DurationMs > 0 {
			cp := *r
			cp.Duration = time.Duration(r.DurationMs * float64(time.Millisecond))
			out[i].Result = &cp
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
