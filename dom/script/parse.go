package script

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"domscope/dom"
	"domscope/dom/query"
)

// MaxScriptLine is the longest script line Run reads (1 MiB). A longer one
// fails as a step of its own, and the run goes on after it.
const MaxScriptLine = 1 << 20

// Bounds on a step's numbers. A typo fails where it is written instead of
// doing something absurd (or nothing) in the page.
const (
	maxClickCount = 3
	maxScrollPx   = 1_000_000
)

// stepFields are the fields each action takes besides "action" and
// "comment". A field an action does not use is an error. It is a typo or
// a misunderstanding: "text" on a click does not pick the target.
var stepFields = map[string][]string{
	"click":    {"id", "target", "button", "clickCount", "modifiers", "force", "expect"},
	"type":     {"id", "target", "text", "expect"},
	"key":      {"id", "target", "key", "modifiers", "expect"},
	"scroll":   {"id", "target", "dx", "dy", "expect"},
	"hover":    {"id", "target", "expect"},
	"select":   {"id", "target", "value", "expect"},
	"navigate": {"url", "expect"},
	"back":     {"expect"},
	"forward":  {"expect"},
	"reload":   {"expect"},
	"dialog":   {"accept", "dismiss", "text", "expect"},
	"snapshot": {"full"},
	"viewport": {"device", "width", "height", "scale", "mobile", "touch"},
	"wait":     {"ms", "for", "text", "gone", "url", "quiet", "timeout"},
}

// allStepFields names every field a step may have, for messages.
const allStepFields = "action, id, target, text, key, modifiers, button, clickCount, force, dx, dy, value, url, accept, dismiss, full, ms, for, gone, quiet, timeout, device, width, height, scale, mobile, touch, expect, comment"

// scriptLine is one line of a script as read. It holds its text, or its
// length when it is past MaxScriptLine.
type scriptLine struct {
	text    string
	tooLong bool
	size    int // bytes, without the line end
}

// lineReader reads lines of any length, keeping at most MaxScriptLine bytes
// of each. bufio.Scanner would stop the whole read at its limit.
type lineReader struct{ br *bufio.Reader }

func newLineReader(r io.Reader) *lineReader { return &lineReader{bufio.NewReaderSize(r, 64<<10)} }

// next returns the next line, or io.EOF after the last.
func (lr *lineReader) next() (scriptLine, error) {
	var buf, frag []byte
	total := 0
	for {
		var err error
		frag, err = lr.br.ReadSlice('\n')
		total += len(frag)
		if len(buf) <= MaxScriptLine+2 { // past that the line is too long anyway
			buf = append(buf, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (!errors.Is(err, io.EOF) || total == 0) {
			return scriptLine{}, err
		}
		break
	}
	if len(buf) < total {
		// Not kept whole: count the line without its end.
		if bytes.HasSuffix(frag, []byte("\n")) {
			total--
			if bytes.HasSuffix(frag, []byte("\r\n")) {
				total--
			}
		}
		return scriptLine{tooLong: true, size: total}, nil
	}
	text := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
	if len(text) > MaxScriptLine {
		return scriptLine{tooLong: true, size: len(text)}, nil
	}
	return scriptLine{text: text, size: len(text)}, nil
}

// parseStep decodes and checks one line. Every error is a
// VALIDATION_ERROR. It names the line and says what is allowed.
func parseStep(line string, lineNo int) (Step, error) {
	bad := func(format string, args ...any) error {
		return dom.Errorf(dom.ValidationError, nil, "line %d: %s", lineNo, fmt.Sprintf(format, args...))
	}
	var st Step
	if err := checkUTF8(line); err != "" {
		return st, bad("%s", err)
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return st, bad("%s", describeJSONError(err))
	}
	if rest := strings.TrimSpace(line[dec.InputOffset():]); rest != "" {
		return st, bad("text after the step's JSON object: %q (one object per line; a note goes in \"comment\")", dom.Clip(rest, 40))
	}
	// Which fields the line names (json matches names in any case).
	var present map[string]json.RawMessage
	_ = json.Unmarshal([]byte(line), &present)
	given := map[string]bool{}
	for k := range present {
		given[canonicalField(k)] = true
	}

	st.Action = strings.ToLower(strings.TrimSpace(st.Action))
	fields, known := stepFields[st.Action]
	if !known {
		if st.Action == "" {
			return st, bad("a step needs \"action\": one of %s", strings.Join(scriptKinds, ", "))
		}
		return st, bad("unknown action %q: use one of %s", st.Action, strings.Join(scriptKinds, ", "))
	}
	allowed := map[string]bool{"action": true, "comment": true}
	for _, f := range fields {
		allowed[f] = true
	}
	var extra []string
	for k := range given {
		if !allowed[k] {
			extra = append(extra, fmt.Sprintf("%q", k))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		takes := "no fields but \"comment\""
		if len(fields) > 0 {
			takes = strings.Join(fields, ", ") + ", comment"
		}
		return st, bad("%s does not use %s (it takes %s)", st.Action, strings.Join(extra, ", "), takes)
	}

	if given["id"] && given["target"] {
		return st, bad("give either \"id\" or \"target\", not both")
	}
	switch st.Action {
	case "click", "type", "hover", "select":
		if st.ID == "" && st.Target == nil {
			return st, bad("%s needs a \"target\" (or \"id\")", st.Action)
		}
	case "key":
		if strings.TrimSpace(st.Key) == "" {
			return st, bad("key needs \"key\": a key name such as Enter, Tab, ArrowDown, a or ctrl+a")
		}
	case "navigate":
		if strings.TrimSpace(st.URL) == "" {
			return st, bad("navigate needs \"url\"")
		}
	}
	if given["clickCount"] && (st.ClickCount < 1 || st.ClickCount > maxClickCount) {
		return st, bad("clickCount %d: use 1, 2 or 3", st.ClickCount)
	}
	for _, d := range []struct {
		name string
		v    float64
	}{{"dx", st.DX}, {"dy", st.DY}} {
		if math.IsNaN(d.v) || math.Abs(d.v) > maxScrollPx {
			return st, bad("%s %g: use a number of pixels from %d to %d", d.name, d.v, -maxScrollPx, maxScrollPx)
		}
	}
	for _, q := range []*query.Query{st.Target, st.For} {
		if q != nil && q.Nth != nil && *q.Nth < 0 {
			return st, bad("nth %d: use 0 (the first visible match) or more", *q.Nth)
		}
		if q != nil && q.Ref != "" && (*q != query.Query{Ref: q.Ref}) {
			return st, bad("a target with \"ref\" takes no other field: the ref's line gives its role and name")
		}
	}
	if st.Action == "viewport" {
		// A size given is checked as --viewport checks it. 0x0 is no
		// window, not "the browser's own"; a step without a size is that.
		var err error
		switch {
		case given["width"] != given["height"]:
			err = dom.Errorf(dom.ValidationError, nil, "viewport %dx%d: give both width and height", st.Width, st.Height)
		case given["width"]:
			err = dom.CheckSize(st.Width, st.Height)
		}
		if err == nil {
			_, err = st.viewport()
		}
		if err != nil {
			return st, bad("%s", dom.ErrorOf(err).Message)
		}
	}
	if st.Action == "wait" {
		maxMs := int(maxWait.Milliseconds())
		conds := 0
		for _, f := range []string{"for", "text", "gone", "url", "quiet"} {
			if given[f] {
				conds++
			}
		}
		switch {
		case given["ms"] && conds > 0:
			return st, bad("wait takes \"ms\" (a sleep) or something to wait for, not both")
		case !given["ms"] && conds == 0:
			return st, bad("wait needs \"ms\" (1 to %d), or \"for\" a target query, \"text\", \"gone\", \"url\" or \"quiet\"", maxMs)
		case given["for"] && conds > 1:
			return st, bad("wait \"for\" a query takes no \"text\", \"gone\", \"url\" or \"quiet\"")
		case given["text"] && given["gone"]:
			return st, bad("wait takes \"text\" (to appear) or \"gone\" (to disappear), not both")
		case given["ms"] && (st.Ms < 1 || st.Ms > maxMs):
			return st, bad("ms %d: use 1 to %d (milliseconds)", st.Ms, maxMs)
		case given["quiet"] && (st.Quiet < 1 || st.Quiet > maxMs):
			return st, bad("quiet %d: use 1 to %d (milliseconds the view stays still)", st.Quiet, maxMs)
		case given["text"] && st.Text == "", given["gone"] && st.Gone == "", given["url"] && st.URL == "":
			return st, bad("wait for an empty text or url: say what to wait for")
		case given["timeout"] && conds == 0:
			return st, bad("\"timeout\" bounds a wait for something; to sleep, give \"ms\"")
		case given["timeout"] && (st.Timeout < 1 || st.Timeout > maxMs):
			return st, bad("timeout %d: use 1 to %d (milliseconds; default 5000)", st.Timeout, maxMs)
		}
	}
	return st, nil
}

// checkUTF8 says what is wrong with a line that is not UTF-8, or holds a
// string with a lone surrogate escape. JSON decoding turns either into
// U+FFFD, which would be typed as it is.
func checkUTF8(line string) string {
	if !utf8.ValidString(line) {
		at := 0
		for at < len(line) {
			r, n := utf8.DecodeRuneInString(line[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return fmt.Sprintf("invalid UTF-8 at byte %d: save the script as UTF-8", at+1)
	}
	if strings.ContainsRune(line, utf8.RuneError) || strings.Contains(strings.ToLower(line), `\ufffd`) {
		return "" // U+FFFD as written
	}
	var v any
	if json.Unmarshal([]byte(line), &v) != nil {
		return "" // the decoder says what is wrong
	}
	if holdsRuneError(v) {
		return `a string holds a lone surrogate escape (\uD800 to \uDFFF without its pair): it is not a character`
	}
	return ""
}

// holdsRuneError reports whether a decoded JSON value holds U+FFFD.
func holdsRuneError(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.ContainsRune(v, utf8.RuneError)
	case []any:
		for _, x := range v {
			if holdsRuneError(x) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if holdsRuneError(k) || holdsRuneError(x) {
				return true
			}
		}
	}
	return false
}

// canonicalField returns the Step field name k matches, or k. json
// matches names without regard to case.
func canonicalField(k string) string {
	for _, f := range strings.Split(allStepFields, ", ") {
		if strings.EqualFold(f, k) {
			return f
		}
	}
	return k
}

// describeJSONError says what is wrong with a line that does not decode
// into a Step.
func describeJSONError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON object is not complete (one step per line)"
	case errors.As(err, &syn):
		return fmt.Sprintf("not a JSON object: %v (at byte %d)", syn, syn.Offset)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("a step is a JSON object with \"action\", not a JSON %s", typ.Value)
	case errors.As(err, &typ):
		want := "a " + typ.Type.String()
		switch typ.Type.Kind() {
		case reflect.Int:
			want = "a whole number"
		case reflect.Float64:
			want = "a number"
		case reflect.String:
			want = "a string"
		case reflect.Bool:
			want = "true or false"
		case reflect.Slice:
			want = "a list of strings"
		case reflect.Struct:
			want = "an object"
		}
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok {
			if typ.Type.Kind() == reflect.Float64 {
				return fmt.Sprintf("%q: %s is out of range", typ.Field, n)
			}
			return fmt.Sprintf("%q must be %s, not %s", typ.Field, want, n)
		}
		return fmt.Sprintf("%q must be %s, not %s", typ.Field, want, typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Sprintf("%s; a step's fields are %s; a target's are id, role, name, nameContains, text, testid, css, ref, nth, unique",
			strings.TrimPrefix(err.Error(), "json: "), allStepFields)
	}
	return fmt.Sprintf("not a valid step: %v", err)
}

// viewport is the window a viewport step asks for. That is its device (if
// any), with the size, scale, mobile and touch the step gives over it.
func (st Step) viewport() (dom.Viewport, error) {
	var vp dom.Viewport
	if st.Device != "" {
		d, err := dom.LookupDevice(st.Device)
		if err != nil {
			return vp, err
		}
		vp = d
	}
	if st.Width != 0 || st.Height != 0 {
		vp.Width, vp.Height = st.Width, st.Height
	}
	if st.Scale != 0 {
		vp.Scale = st.Scale
	}
	if st.Mobile != nil {
		vp.Mobile, vp.Touch = *st.Mobile, *st.Mobile
	}
	if st.Touch != nil {
		vp.Touch = *st.Touch
	}
	return vp, vp.Check()
}
