package script

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/query"
	"domscope/dom/urls"
)

// WithheldComment is the comment of a recorded step whose text was typed
// into a sensitive field. The text itself is never written, only dom.Mask.
const WithheldComment = "value withheld: typed into a sensitive field; a replay asks for it (run: the variable DOMSCOPE_SECRET_<step number>; run --ui: a masked prompt)"

// URLWithheldComment is the comment of a recorded navigate step whose URL
// held user info or a credential (urls.Safe). It is written without them.
const URLWithheldComment = "url withheld: it held a password or token, written as … here; put the real URL in before replaying"

// withholdURL writes a navigate step's URL as urls.Safe shows it. When
// that hid something, it adds URLWithheldComment. Such a step is written
// as a comment line (see entry.line): a replay would load the wrong page.
func withholdURL(st *Step) {
	if st.URL == "" {
		return
	}
	if safe := urls.Safe(st.URL); safe != st.URL {
		st.URL = safe
		st.Comment = strings.TrimSpace(URLWithheldComment + " " + st.Comment)
	}
}

// TargetFor returns a query that picks n in snap and still picks it on a
// fresh load of the page, where node IDs differ. It tries, in order:
//   - role and exact name.
//   - a test id.
//   - a CSS path: ids that look hand-written, else tags with
//     :nth-of-type, from the top-level document.
//   - for a node whose role means something, that role.
//
// When the query matches more than one visible node it carries "nth".
// A node no query picks is an error that says why. It is hidden, or a
// nameless container inside a shadow root or frame. There "generic" with
// nth would be a position among every such node on the page. That is as
// brittle as a node ID. The CSS path is trusted as built; TargetForPage
// checks it on the live page.
func TargetFor(snap *dom.Snapshot, n *dom.VirtualNode) (query.Query, error) {
	return targetFor(snap, n, nil)
}

// TargetForPage is TargetFor with the CSS path checked on the page of
// snap, before anything changes it. document.querySelectorAll must match
// one element, and that element must be n (the same backend node).
func TargetForPage(ctx context.Context, page query.CSSQuerier, snap *dom.Snapshot, n *dom.VirtualNode) (query.Query, error) {
	return targetFor(snap, n, func(css string) bool {
		found, err := page.QueryCSS(ctx, css)
		return err == nil && len(found) == 1 && found[0].BackendID == n.BackendID && found[0].FrameID == n.FrameID
	})
}

// targetFor is TargetFor. onPage, when set, checks a CSS path on the page.
func targetFor(snap *dom.Snapshot, n *dom.VirtualNode, onPage func(css string) bool) (query.Query, error) {
	if snap == nil || n == nil || snap.Node(n.ID) != n {
		return query.Query{}, dom.Errorf(dom.NodeNotFound, nil, "the node is not in the snapshot")
	}
	if n.NodeType != dom.ElementNode {
		return query.Query{}, dom.Errorf(dom.ValidationError, nil, "%s is not an element", describeNode(n))
	}
	if !n.Visible && n.Hidden != dom.HiddenOpacity && n.Hidden != dom.HiddenAriaHidden {
		return query.Query{}, dom.Errorf(dom.NotInteractable, nil, "%s is hidden (%s): a replay acts only on nodes it can see", describeNode(n), n.Hidden)
	}
	var tries []query.Query
	if name := strings.Join(strings.Fields(n.Name), " "); n.Role != "" && name != "" {
		tries = append(tries, query.Query{Role: n.Role, Name: name})
	}
	if tid := testID(n); tid != "" {
		tries = append(tries, query.Query{TestID: tid})
	}
	css := CSSPath(snap, n)
	if css != "" {
		tries = append(tries, query.Query{CSS: css})
	}
	// A role alone picks by position among the nodes of that role. That is
	// fair for a textbox, not for one of a page's hundreds of generic boxes.
	if n.Role != "" && n.Tier == dom.Semantic {
		tries = append(tries, query.Query{Role: n.Role})
	}
	for _, q := range tries {
		if q2, ok := aim(snap, q, n, onPage); ok {
			return q2, nil
		}
	}
	why := "it has no accessible name or test id"
	switch {
	case css != "":
		why += fmt.Sprintf(", and its CSS path %s does not pick it alone in the page", css)
	case inFrame(snap, n):
		why += ", and it is inside a frame, where a CSS path does not reach"
	default:
		why += ", and it is inside a shadow root, where a CSS path does not reach"
	}
	return query.Query{}, dom.Errorf(dom.NodeNotFound, nil, "%s: %s (give it a name or a data-testid to record it)", describeNode(n), why)
}

// aim adds nth to q when it matches several visible nodes. It reports
// whether the result picks n, checked with query.Pick as a replay picks.
// A CSS path is also checked with onPage, when set.
func aim(snap *dom.Snapshot, q query.Query, n *dom.VirtualNode, onPage func(string) bool) (query.Query, bool) {
	var found []*dom.VirtualNode
	if q.CSS != "" {
		// A path of ids and :nth-of-type matches one element by
		// construction. The page, when asked, has the last word.
		if onPage != nil && !onPage(q.CSS) {
			return q, false
		}
		found = []*dom.VirtualNode{n}
	} else {
		found = query.FindNodes(snap, q)
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
		got, err := query.Pick(snap, q, found)
		return q, err == nil && got == n
	}
	return q, false
}

// describeNode names a node in a recording without its node ID, which
// means nothing on another load. Example: `div#box generic "Save"`.
func describeNode(n *dom.VirtualNode) string {
	s := n.Tag
	if id := n.Attrs["id"]; plainIdent(id) {
		s += "#" + id
	}
	if n.Role != "" && n.Role != n.Tag {
		s += " " + n.Role
	}
	if name := strings.Join(strings.Fields(n.Name), " "); name != "" {
		s += fmt.Sprintf(" %q", dom.Clip(name, 40))
	}
	return s
}

// inFrame reports whether n is in a frame's document, not the top one.
func inFrame(snap *dom.Snapshot, n *dom.VirtualNode) bool {
	for e := n; e != nil; e = e.Parent {
		if e.NodeType == dom.DocumentNode {
			return e != snap.Root
		}
	}
	return false
}

// testID is the node's data-testid (or data-test, data-cy, data-test-id).
// A "testid" query reads these attributes.
func testID(n *dom.VirtualNode) string {
	for _, a := range []string{"data-testid", "data-test", "data-cy", "data-test-id"} {
		if v := n.Attrs[a]; strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// CSSPath returns a selector for n that document.querySelectorAll on the
// top-level document matches once. It starts from the nearest ancestor
// with a unique, hand-written-looking id (or from html). It has one tag
// per level, with :nth-of-type where the tag repeats among siblings.
// Classes are left out: they often say the state ("completed", "active")
// and change with it. A node in a shadow root or a frame has no such
// path: "".
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
// rather than generated (#ember123, #r-4f9a02). Generated ones change
// from one load to the next.
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

// idCount counts the elements of the top-level document whose id is id.
// Shadow roots and frames do not count.
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
// document. There document.querySelectorAll finds it.
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

// Aim is the target of an action, worked out before the action ran
// (AimAt). So a CSS path can be checked on the page as the snapshot shows
// it.
type Aim struct {
	id  string
	q   query.Query
	err error
}

// AimAt works out the target of a, an action on the page of snap that has
// not run yet. It uses TargetForPage's query when page can run CSS
// selectors (a live service can), else TargetFor's. An action with no
// node needs none.
func AimAt(ctx context.Context, page dom.Actor, snap *dom.Snapshot, a dom.Action) Aim {
	if a.ID == "" || snap == nil {
		return Aim{}
	}
	n := snap.Node(a.ID)
	if n == nil {
		return Aim{id: a.ID, err: dom.Errorf(dom.NodeNotFound, nil, "the node is not in the snapshot the action was aimed with")}
	}
	var q query.Query
	var err error
	// A JavaScript dialog blocks the page's scripts, so no check then. The
	// action fails on the dialog anyway.
	if cq, ok := page.(query.CSSQuerier); ok && openDialog(page) == nil {
		q, err = TargetForPage(ctx, cq, snap, n)
	} else {
		q, err = TargetFor(snap, n)
	}
	return Aim{id: a.ID, q: q, err: err}
}

// stepFor turns an action done on snap into a script step that does the
// same on a fresh load. The UI names a node by ID; the step names it by a
// query (TargetFor). A node no query picks is never written as its ID: on
// another load that is another node. Then the step has no target and a
// comment saying why. The error is returned with it. The recorder writes
// such a step as a comment line. Text typed into a sensitive field is
// written as dom.Mask with WithheldComment, never as itself. So is a
// character key pressed into one, and an option picked in one.
// secretFocus says the focus may be in a sensitive field. That is the
// recorder's guess, since a tab in the background reports no focused
// node. Then a character key without a target is withheld too.
// aimed, when it is for a's node, is the target worked out before a ran.
func stepFor(snap *dom.Snapshot, a dom.Action, secretFocus bool, aimed *Aim) (Step, error) {
	st := Step{Action: string(a.Kind)}
	var n *dom.VirtualNode
	var aimErr error
	if a.ID != "" {
		n = snap.Node(a.ID)
		switch {
		case aimed != nil && aimed.id == a.ID:
			aimErr = aimed.err
			if aimErr == nil {
				q := aimed.q
				st.Target = &q
			}
		case n == nil:
			aimErr = dom.Errorf(dom.NodeNotFound, nil, "the node is not in the snapshot the action was aimed with")
		default:
			if q, err := TargetFor(snap, n); err != nil {
				aimErr = err
			} else {
				st.Target = &q
			}
		}
	}
	secret := n.TakesSecret()
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
		inSecret := n.TakesSecret()
		if n == nil {
			inSecret = secretFocus || focused(snap).Sensitive()
		}
		if inSecret && dom.TypesChar(a.Key, a.Modifiers) {
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
	case dom.KindViewport:
		viewportStep(&st, a.Viewport)
	default:
		return Step{}, dom.Errorf(dom.ValidationError, nil, "cannot record action %q", a.Kind)
	}
	if aimErr != nil {
		st.Comment = strings.TrimSpace(st.Comment + " " + NoTargetComment + ": " + dom.ErrorOf(aimErr).Message)
	}
	return st, aimErr
}

// NoTargetComment starts the comment of a recorded step whose node no
// query picks on a fresh load. The recording keeps it as a comment line.
const NoTargetComment = "not replayed, no target found"

// viewportStep writes the window vp into a viewport step; nil or zero is
// the browser's own. It names a device, and whatever vp sets apart from
// it. A replay (Step.viewport) reads it back as the same window.
func viewportStep(st *Step, vp *dom.Viewport) {
	if vp == nil || vp.IsZero() {
		return
	}
	var base dom.Viewport
	if vp.Device != "" {
		if d, err := dom.LookupDevice(vp.Device); err == nil {
			base = d
			st.Device = d.Device
		}
	}
	if vp.Width != base.Width || vp.Height != base.Height {
		st.Width, st.Height = vp.Width, vp.Height
	}
	if vp.Scale != base.Scale {
		st.Scale = vp.Scale
	}
	// "mobile" sets touch too; "touch" is written only where it differs.
	if vp.Mobile != base.Mobile || vp.Touch != base.Touch {
		mobile, touch := vp.Mobile, vp.Touch
		st.Mobile = &mobile
		if touch != mobile {
			st.Touch = &touch
		}
	}
	if vp.UserAgent != base.UserAgent {
		st.Comment = "the user agent is not replayed: a viewport step sets one only through \"device\""
	}
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

// Recorder keeps a session's actions as script steps. Each action becomes
// a step (stepFor) when it has run. The step is kept in memory with its
// result. It is also appended at once to the writer, if any, as one line.
// That is for `domscope --record FILE`, so a crash loses nothing. A failed
// action is written as a comment line. So is one whose node no query
// picks on a fresh load. So the script replays what worked on what it
// aimed at. The log keeps it with its error. Safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	w       io.Writer
	entries []entry
	started bool
	// secretFocus: the last action aimed at a node aimed at a sensitive
	// field. So the focus may still be there.
	secretFocus bool
}

type entry struct {
	step Step
	log  dom.SessionStep
	// noTarget: no query picks the step's node on a fresh load. So the
	// script has it as a comment line.
	noTarget bool
}

// NewRecorder returns a recorder that appends to w (nil: memory only).
func NewRecorder(w io.Writer) *Recorder { return &Recorder{w: w} }

// Record adds action a to the log. before is the snapshot a was aimed
// with (the one whose node IDs it names); res is how it ended. desc is
// the action as the UI showed it. Snapshot requests are not actions and
// are not recorded (ok false). An action whose node no query can pick is
// recorded as a comment line saying why (stepFor). That error is returned
// too. A write error is returned; the step stays in the log.
func (r *Recorder) Record(before *dom.Snapshot, a dom.Action, res dom.ActionResult, desc string) (st Step, ok bool, err error) {
	return r.record(before, a, nil, res, desc)
}

// RecordAimed is Record with the target worked out before a ran (AimAt).
// Its CSS path was checked on the page.
func (r *Recorder) RecordAimed(before *dom.Snapshot, a dom.Action, aimed Aim, res dom.ActionResult, desc string) (st Step, ok bool, err error) {
	return r.record(before, a, &aimed, res, desc)
}

func (r *Recorder) record(before *dom.Snapshot, a dom.Action, aimed *Aim, res dom.ActionResult, desc string) (st Step, ok bool, err error) {
	if a.Kind == dom.KindSnapshot {
		return Step{}, false, nil
	}
	if before == nil {
		before = &dom.Snapshot{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	st, aimErr := stepFor(before, a, r.secretFocus, aimed)
	if st.Action == "" {
		return st, false, aimErr
	}
	switch {
	case a.ID != "":
		r.secretFocus = before.Node(a.ID).TakesSecret()
	case a.Kind.Navigates():
		r.secretFocus = false
	}
	line, jerr := marshalStep(st)
	if jerr != nil {
		return st, false, jerr
	}
	// The UI masks its own description; make sure of it.
	desc = urls.SafeIn(desc)
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
	e := entry{step: st, noTarget: aimErr != nil, log: dom.SessionStep{Step: line, Desc: desc, URL: before.URL, Seq: before.Seq,
		At: time.Now().UTC().Format(time.RFC3339), Result: &rc}}
	if err := r.appendLocked(e, before.URL); err != nil {
		return st, true, err
	}
	return st, true, aimErr
}

// appendLocked adds an entry to the log. With a file it writes its line,
// after a header naming the page the first time. Callers hold r.mu.
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
	if _, werr := r.w.Write(flatten.EscapeJSON(b.Bytes())); werr != nil {
		return dom.Errorf(dom.ValidationError, werr, "writing the recorded step")
	}
	return nil
}

// marshalStep writes a step as compact JSON without HTML escaping. So a
// URL's "&" stays as it is.
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
	if e.noTarget {
		return "# " + line + "\n"
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

// Log returns the session log as an export keeps it (export.SavedCapture's
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

// WriteScript writes the whole session as a `domscope run` script. It is
// the same as the file of --record holds.
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
	_, err := w.Write(flatten.EscapeJSON(b.Bytes()))
	return err
}

// StepLine returns a step as one script line (no newline), as the UI
// would copy it.
func StepLine(st Step) (string, error) {
	b, err := marshalStep(st)
	if err != nil {
		return "", err
	}
	return string(flatten.EscapeJSON(b)), nil
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
// UI). The line is kept verbatim and a withheld value stays withheld.
// A failed step is written as a comment line, as Record writes a failed
// action. before is the snapshot the step ran on (for its URL). A
// snapshot step is not recorded.
func (r *Recorder) RecordStep(before *dom.Snapshot, st Step, res dom.ActionResult, desc string) error {
	if st.Action == string(dom.KindSnapshot) {
		return nil
	}
	if before == nil {
		before = &dom.Snapshot{}
	}
	withholdURL(&st)
	desc = urls.SafeIn(desc)
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

// KeepView keeps the flattened text view before and after the last
// recorded step with it, unless it has one already. So an export can tell
// the story offline. A snapshot with nothing recorded yet is not kept.
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
	setView(&e.log, before, after)
}

// setView keeps the view before and after the step. That is After (when
// it is not too big) and the diff between them.
func setView(s *dom.SessionStep, before, after string) {
	if len(after) <= dom.MaxStepView {
		s.After = after
	}
	s.Diff = flatten.LineDiff(before, after)
	s.Unchanged = len(s.Diff) == 0
}
