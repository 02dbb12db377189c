package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"domscope/dom"
)

// WithheldComment is the comment of a recorded step whose text was typed
// into a sensitive field: the text itself is never written, only dom.Mask.
const WithheldComment = "value withheld: typed into a sensitive field; a replay asks for it (run: the variable DOMSCOPE_SECRET_<step number>; run --ui: a masked prompt)"

// URLWithheldComment is the comment of a recorded navigate step whose URL
// held user info or a credential (dom.SafeURL): it is written without them.
const URLWithheldComment = "url withheld: it held a password or token, written as … here; put the real URL in before replaying"

// withholdURL writes a navigate step's URL as dom.SafeURL shows it, with
// URLWithheldComment when that hid something. Such a step is written as a
// comment line (see entry.line): a replay would load the wrong page.
func withholdURL(st *Step) {
	if st.URL == "" {
		return
	}
	if safe := dom.SafeURL(st.URL); safe != st.URL {
		st.URL = safe
		st.Comment = strings.TrimSpace(URLWithheldComment + " " + st.Comment)
	}
}

// TargetFor returns a query that picks n in snap and still picks it on a
// fresh load of the page, where node IDs differ: role and exact name, else
// a test id, else a CSS path (ids that look hand-written, else tags with
// :nth-of-type, from the top-level document). When the query matches more
// than one visible node it carries "nth". A node no query can pick (hidden,
// or inside a shadow root or frame with no role, name or test id) is an
// error.
func TargetFor(snap *dom.Snapshot, n *dom.VirtualNode) (dom.Query, error) {
	if snap == nil || n == nil || snap.Node(n.ID) != n {
		return dom.Query{}, dom.Errorf(dom.NodeNotFound, nil, "the node is not in the snapshot")
	}
	if n.NodeType != dom.ElementNode {
		return dom.Query{}, dom.Errorf(dom.ValidationError, nil, "%s is not an element", n.ID)
	}
	var tries []dom.Query
	if name := strings.Join(strings.Fields(n.Name), " "); n.Role != "" && name != "" {
		tries = append(tries, dom.Query{Role: n.Role, Name: name})
	}
	if tid := testID(n); tid != "" {
		tries = append(tries, dom.Query{TestID: tid})
	}
	css := CSSPath(snap, n)
	if css != "" {
		tries = append(tries, dom.Query{CSS: css})
	}
	// Shadow roots and frames have no CSS path: a role, or the node's own
	// text, with nth is the best left.
	if n.Role != "" {
		tries = append(tries, dom.Query{Role: n.Role})
	}
	for _, q := range tries {
		if q2, ok := aim(snap, q, n); ok {
			return q2, nil
		}
	}
	return dom.Query{}, dom.Errorf(dom.NotInteractable, nil, "%s is not visible: no query would pick it in a replay", dom.NodeLabel(n, 40))
}

// aim adds nth to q when it matches several visible nodes, and reports
// whether the result picks n (checked with dom.Pick, as a replay picks).
func aim(snap *dom.Snapshot, q dom.Query, n *dom.VirtualNode) (dom.Query, bool) {
	var found []*dom.VirtualNode
	if q.CSS != "" {
		// A path of ids and :nth-of-type matches one element by construction.
		found = []*dom.VirtualNode{n}
	} else {
		found = dom.FindNodes(snap, q)
	}
	var visible, rendered []*dom.VirtualNode
	for _, f := range found {
		switch {
		case f.Visible:
			visible = append(visible, f)
		case f.Hidden == dom.HiddenOpacity || f.Hidden == dom.HiddenAriaHidden:
			rendered = append(rendered, f)
		}
	}
	if len(visible) == 0 {
		visible = rendered
	}
	for i, f := range visible {
		if f != n {
			continue
		}
		if len(visible) > 1 {
			q.Nth = &i
		}
		got, err := dom.Pick(snap, q, found)
		return q, err == nil && got == n
	}
	return q, false
}

// testID is the node's data-testid (or data-test, data-cy, data-test-id),
// the attributes a "testid" query reads.
func testID(n *dom.VirtualNode) string {
	for _, a := range []string{"data-testid", "data-test", "data-cy", "data-test-id"} {
		if v := n.Attrs[a]; strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// CSSPath returns a selector for n that document.querySelectorAll on the
// top-level document matches once: from the nearest ancestor with a unique,
// hand-written-looking id (or from html), one tag per level with
// :nth-of-type where the tag repeats among siblings. Classes are left out:
// they often say the state ("completed", "active") and change with it.
// A node in a shadow root or a frame has no such path: "".
func CSSPath(snap *dom.Snapshot, n *dom.VirtualNode) string {
	var parts []string
	for e := n; e != nil; e = e.Parent {
		if e.NodeType == dom.DocumentNode {
			if e != snap.Root {
				return "" // a frame's document
			}
			break
		}
		if e.NodeType != dom.ElementNode || !plainIdent(e.Tag) {
			return "" // a shadow root on the way up, or an odd tag
		}
		if id := e.Attrs["id"]; handWritten(id) && idCount(snap, id) == 1 {
			parts = append(parts, "#"+id)
			break
		}
		seg := e.Tag
		if p := e.Parent; p != nil {
			k, same := 0, 0
			for _, c := range p.Children {
				if c.NodeType == dom.ElementNode && c.Tag == e.Tag {
					same++
					if c == e {
						k = same
					}
				}
			}
			if same > 1 {
				seg += fmt.Sprintf(":nth-of-type(%d)", k)
			}
		}
		parts = append(parts, seg)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, " > ")
}

// plainIdent reports whether s can be written in a selector as it is.
func plainIdent(s string) bool {
	if s == "" || s[0] == '-' || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// handWritten reports whether an id looks chosen by a person (#email)
// rather than generated (#ember123, #r-4f9a02): generated ones change from
// one load to the next.
func handWritten(id string) bool {
	if !plainIdent(id) {
		return false
	}
	run := 0
	for _, r := range id {
		if r >= '0' && r <= '9' {
			if run++; run >= 3 {
				return false
			}
		} else {
			run = 0
		}
	}
	return true
}

// idCount counts the elements of the top-level document (not in shadow
// roots or frames) whose id is id.
func idCount(snap *dom.Snapshot, id string) int {
	c := 0
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if n.NodeType == dom.ElementNode && n.Attrs["id"] == id && inTopDocument(snap, n) {
			c++
		}
	})
	return c
}

// inTopDocument reports whether n is in the light DOM of the top-level
// document, where document.querySelectorAll finds it.
func inTopDocument(snap *dom.Snapshot, n *dom.VirtualNode) bool {
	for e := n; e != nil; e = e.Parent {
		if e.NodeType == dom.DocumentNode {
			return e == snap.Root
		}
		if e.NodeType != dom.ElementNode {
			return false
		}
	}
	return false
}

// StepFor turns an action done on snap (as the UI does it: a node ID) into a
// script step that does the same on a fresh load: the node becomes a query
// (TargetFor); a node no query picks is kept as its ID, with a comment
// saying why, and the error is returned with the step. Text typed into a sensitive field is written as dom.Mask with
// WithheldComment, never as itself; so is a character key pressed into one,
// and an option picked in one.
func StepFor(snap *dom.Snapshot, a dom.Action) (Step, error) {
	return stepFor(snap, a, false)
}

// stepFor is StepFor; secretFocus says the focus may be in a sensitive
// field (the recorder's guess, since a tab in the background reports no
// focused node), so a character key without a target is withheld too.
func stepFor(snap *dom.Snapshot, a dom.Action, secretFocus bool) (Step, error) {
	st := Step{Action: string(a.Kind)}
	var n *dom.VirtualNode
	var aimErr error
	if a.ID != "" {
		if n = snap.Node(a.ID); n == nil {
			aimErr = dom.Errorf(dom.NodeNotFound, nil, "%s is not in the snapshot the action ran on", dom.NormalizeID(a.ID))
		} else if q, err := TargetFor(snap, n); err != nil {
			aimErr = err
		} else {
			st.Target = &q
		}
		if aimErr != nil {
			// Keep the step, aimed at what the session saw, and say why.
			st.Target = &dom.Query{ID: dom.NormalizeID(a.ID)}
		}
	}
	secret := n.Sensitive()
	switch a.Kind {
	case dom.KindClick:
		st.Button, st.ClickCount, st.Modifiers, st.Force = a.Button, a.ClickCount, a.Modifiers, a.Force
		if st.Button == "left" {
			st.Button = ""
		}
		if st.ClickCount == 1 {
			st.ClickCount = 0
		}
	case dom.KindType:
		st.Text = a.Text
		if secret && a.Text != "" {
			st.Text = dom.Mask
			if strings.HasSuffix(a.Text, "\n") {
				st.Text += "\n" // keep the Enter: it is the submit, not the secret
			}
			st.Comment = WithheldComment
		}
	case dom.KindKey:
		st.Key, st.Modifiers = a.Key, a.Modifiers
		inSecret := n.Sensitive()
		if n == nil {
			inSecret = secretFocus || focused(snap).Sensitive()
		}
		if inSecret && typesChar(a.Key, a.Modifiers) {
			st.Key = dom.Mask
			st.Comment = "key withheld: a character pressed in a sensitive field; put the key in place of •••• before replaying"
		}
	case dom.KindScroll:
		st.DX, st.DY = a.DX, a.DY
	case dom.KindHover:
	case dom.KindSelect:
		st.Value = a.Value
		if secret && a.Value != "" {
			st.Value = dom.Mask
			st.Comment = "value withheld: picked in a sensitive field; put the real value in place of •••• before replaying"
		}
	case dom.KindNavigate:
		st.URL = a.URL
		withholdURL(&st)
	case dom.KindBack, dom.KindForward, dom.KindReload, dom.KindSnapshot:
	case dom.KindDialog:
		acc := a.Accept
		st.Accept = &acc
		st.Text = a.Text
	default:
		return Step{}, dom.Errorf(dom.ValidationError, nil, "cannot record action %q", a.Kind)
	}
	if aimErr != nil {
		st.Comment = strings.TrimSpace(st.Comment + " target kept as a node ID: " + aimErr.Error())
	}
	return st, aimErr
}

// focused returns the node of snap that has the focus, or nil.
func focused(snap *dom.Snapshot) *dom.VirtualNode {
	var f *dom.VirtualNode
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if f == nil && n.States["focused"] == "true" {
			f = n
		}
	})
	return f
}

// typesChar reports whether a key press would type a character into a
// field: one character, with no modifier but Shift.
func typesChar(key string, mods []string) bool {
	parts := strings.Split(key, "+")
	k := parts[len(parts)-1]
	if key == "+" || strings.HasSuffix(key, "++") {
		k = "+"
		parts = parts[:len(parts)-1]
	}
	for _, m := range append(append([]string{}, mods...), parts[:len(parts)-1]...) {
		if m != "" && !strings.EqualFold(m, "shift") {
			return false
		}
	}
	return len([]rune(k)) == 1 || k == "Space"
}

// Recorder keeps a session's actions as script steps: each action is turned
// into a step (StepFor) when it has run, kept in memory with its result, and
// appended at once to the writer, if any, as one line (for `domscope
// --record FILE`, so a crash loses nothing). A failed action is written as a
// comment line, so the script replays what worked; the log keeps it with its
// error. Safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	w       io.Writer
	entries []entry
	started bool
	// secretFocus: the last action aimed at a node aimed at a sensitive
	// field, so the focus may still be there.
	secretFocus bool
}

type entry struct {
	step Step
	log  dom.SessionStep
}

// NewRecorder returns a recorder that appends to w (nil: memory only).
func NewRecorder(w io.Writer) *Recorder { return &Recorder{w: w} }

// Record adds action a, aimed with snapshot before (the one whose node IDs
// it names) and ended with res, to the log; desc is the action as the UI
// showed it. Snapshot requests are not actions and are not recorded
// (ok false). An action whose node no query can pick is recorded with its
// node ID and a comment saying so, and that error is returned too. A write
// error is returned; the step stays in the log.
func (r *Recorder) Record(before *dom.Snapshot, a dom.Action, res dom.ActionResult, desc string) (st Step, ok bool, err error) {
	if a.Kind == dom.KindSnapshot {
		return Step{}, false, nil
	}
	if before == nil {
		before = &dom.Snapshot{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	st, aimErr := stepFor(before, a, r.secretFocus)
	if st.Action == "" {
		return st, false, aimErr
	}
	switch {
	case a.ID != "":
		r.secretFocus = before.Node(a.ID).Sensitive()
	case a.Kind == dom.KindNavigate || a.Kind == dom.KindBack || a.Kind == dom.KindForward || a.Kind == dom.KindReload:
		r.secretFocus = false
	}
	line, jerr := marshalStep(st)
	if jerr != nil {
		return st, false, jerr
	}
	// The UI masks its own description; make sure of it.
	desc = dom.SafeURLsIn(desc)
	switch {
	case st.Key == dom.Mask:
		desc = "key " + dom.Mask
	case strings.HasPrefix(st.Text, dom.Mask) && strings.TrimSpace(a.Text) != "":
		desc = strings.ReplaceAll(desc, strings.TrimSuffix(a.Text, "\n"), dom.Mask)
	case st.Value == dom.Mask && a.Value != "":
		desc = strings.ReplaceAll(desc, a.Value, dom.Mask)
	}
	res.ID = dom.NormalizeID(res.ID)
	rc := res
	e := entry{step: st, log: dom.SessionStep{Step: line, Desc: desc, URL: before.URL, Seq: before.Seq,
		At: time.Now().UTC().Format(time.RFC3339), Result: &rc}}
	if err := r.appendLocked(e, before.URL); err != nil {
		return st, true, err
	}
	return st, true, aimErr
}

// appendLocked adds an entry to the log and, with a file, writes its line
// (after a header naming the page, the first time). Callers hold r.mu.
func (r *Recorder) appendLocked(e entry, url string) error {
	r.entries = append(r.entries, e)
	if r.w == nil {
		return nil
	}
	var b bytes.Buffer
	if !r.started && url != "" {
		fmt.Fprintf(&b, "# recorded by domscope on %s (replay on a fresh load of it: domscope run --url URL FILE)\n", oneLine(url))
	}
	r.started = true
	b.WriteString(e.line())
	if _, werr := r.w.Write(dom.EscapeJSON(b.Bytes())); werr != nil {
		return dom.Errorf(dom.ValidationError, werr, "writing the recorded step")
	}
	return nil
}

// marshalStep writes a step as compact JSON without HTML escaping (a URL's
// "&" stays as it is).
func marshalStep(st Step) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(st); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// oneLine keeps a page string on one comment line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// line is the script line of one entry, ending in a newline.
func (e entry) line() string {
	line := string(e.log.Step)
	if strings.HasPrefix(e.step.Comment, URLWithheldComment) {
		return "# url withheld when recorded: " + line + "\n"
	}
	if r := e.log.Result; r != nil && !r.Success {
		why := "failed"
		if r.Error != nil {
			why = fmt.Sprintf("failed with %s: %s", r.Error.Code, oneLine(dom.Clip(r.Error.Message, 160)))
		}
		return "# " + why + " when recorded: " + line + "\n"
	}
	return line + "\n"
}

// Steps returns the recorded steps, oldest first.
func (r *Recorder) Steps() []Step {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Step, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.step
	}
	return out
}

// Log returns the session log as an export keeps it (dom.SavedCapture's
// Session), oldest first.
func (r *Recorder) Log() []dom.SessionStep {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]dom.SessionStep, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.log
	}
	return out
}

// Len is the number of recorded steps.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries)
}

// WriteScript writes the whole session as a `domscope run` script, as the
// file of --record holds it.
func (r *Recorder) WriteScript(w io.Writer) error {
	r.mu.Lock()
	entries := append([]entry(nil), r.entries...)
	r.mu.Unlock()
	var b bytes.Buffer
	if len(entries) > 0 && entries[0].log.URL != "" {
		fmt.Fprintf(&b, "# recorded by domscope on %s (replay on a fresh load of it: domscope run --url URL FILE)\n", oneLine(entries[0].log.URL))
	}
	for _, e := range entries {
		b.WriteString(e.line())
	}
	_, err := w.Write(dom.EscapeJSON(b.Bytes()))
	return err
}

// StepLine returns a step as one script line (no newline), as the UI would
// copy it.
func StepLine(st Step) (string, error) {
	b, err := marshalStep(st)
	if err != nil {
		return "", err
	}
	return string(dom.EscapeJSON(b)), nil
}

// SessionSteps decodes the steps of a saved session log (SavedCapture's
// SessionLog), to replay or show them.
func SessionSteps(log []dom.SessionStep) ([]Step, error) {
	out := make([]Step, 0, len(log))
	for i, s := range log {
		var st Step
		if err := json.Unmarshal(s.Step, &st); err != nil {
			return nil, dom.Errorf(dom.ValidationError, err, "session step %d is not a script step", i+1)
		}
		out = append(out, st)
	}
	return out, nil
}

// RecordStep adds a script step run as it is written (the step-through
// UI): the line is kept verbatim, a withheld value stays withheld, and a
// failed step is written as a comment line, as Record writes a failed
// action. before is the snapshot the step ran on (for its URL). A snapshot
// step is not recorded.
func (r *Recorder) RecordStep(before *dom.Snapshot, st Step, res dom.ActionResult, desc string) error {
	if st.Action == string(dom.KindSnapshot) {
		return nil
	}
	if before == nil {
		before = &dom.Snapshot{}
	}
	withholdURL(&st)
	desc = dom.SafeURLsIn(desc)
	line, err := marshalStep(st)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	res.ID = dom.NormalizeID(res.ID)
	rc := res
	e := entry{step: st, log: dom.SessionStep{Step: line, Desc: desc, URL: before.URL, Seq: before.Seq,
		At: time.Now().UTC().Format(time.RFC3339), Result: &rc}}
	return r.appendLocked(e, before.URL)
}

// KeepView keeps with the last recorded step the flattened text view
// before and after it (so an export can tell the story offline), unless it
// has one already. A snapshot with nothing recorded yet is not kept.
func (r *Recorder) KeepView(before, after string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.entries) == 0 {
		return
	}
	e := &r.entries[len(r.entries)-1]
	if e.log.After != "" || e.log.Diff != nil {
		return
	}
	e.log.SetView(before, after)
}
