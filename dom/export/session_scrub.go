package export

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
	"domscope/dom/query"
	"domscope/dom/urls"
)

// withheldOnOpen is the comment a session step gets when open masks what
// it typed.
const withheldOnOpen = "value withheld when the capture was opened: typed into a sensitive field"

// sessionStep is what scrubSession reads of a recorded step (a script
// line). The rest of the line is kept as it is.
type sessionStep struct {
	Action    string       `json:"action"`
	ID        string       `json:"id"`
	Target    *query.Query `json:"target"`
	Text      string       `json:"text"`
	Key       string       `json:"key"`
	Value     string       `json:"value"`
	Modifiers []string     `json:"modifiers"`
}

// scrubSession masks again what was typed into sensitive fields, in the
// session log of a capture being opened. A file edited by hand, or
// written by another program, may hold it in plain. It masks as the
// recorder does: the text of a type step, the value of a select, a
// character key. Then those values, and known secrets (the raw capture's
// sensitive values), become Mask. That holds in every string of the log
// and the saved views.
//
// A step aims at a sensitive field when any of these holds:
//   - its target picks one in snap (the saved page; any match counts).
//   - its node id names one there.
//   - its own view after it shows the node's value masked.
//   - its target names a secret ("Password", "#cc-number", "one-time code").
//
// snap may be nil (the capture does not build). The other clues still
// count.
func (c *SavedCapture) scrubSession(snap *dom.Snapshot, known []string) {
	secrets := append([]string(nil), known...)
	secretFocus := false
	for i := range c.Session {
		s := &c.Session[i]
		var st sessionStep
		if json.Unmarshal(s.Step, &st) != nil {
			continue
		}
		aimed := st.ID != "" || st.Target != nil
		secret := aimed && aimsAtSecret(snap, st, *s)
		if st.Action == string(dom.KindKey) && !aimed {
			secret = secretFocus
		}
		switch {
		case aimed:
			secretFocus = secret
		case dom.ActionKind(st.Action).Navigates():
			secretFocus = false
		}
		if !secret {
			continue
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(s.Step, &fields) != nil {
			continue
		}
		masked := false
		switch st.Action {
		case string(dom.KindType):
			body, enter := strings.CutSuffix(st.Text, "\n")
			if body != "" && body != dom.Mask {
				secrets = append(secrets, body)
				if enter {
					body = dom.Mask + "\n"
				} else {
					body = dom.Mask
				}
				fields["text"], masked = cdpjson.Quote(body), true
			}
		case string(dom.KindSelect):
			if st.Value != "" && st.Value != dom.Mask {
				secrets = append(secrets, st.Value)
				fields["value"], masked = cdpjson.Quote(dom.Mask), true
			}
		case string(dom.KindKey):
			if st.Key != dom.Mask && dom.TypesChar(st.Key, st.Modifiers) {
				fields["key"], masked = cdpjson.Quote(dom.Mask), true
				s.Desc = "key " + dom.Mask
			}
		}
		if masked {
			fields["comment"] = cdpjson.Quote(withheldOnOpen)
			if b, err := json.Marshal(fields); err == nil {
				s.Step = b
			}
		}
	}
	c.hideInSession(secrets)
}

// hideInSession replaces the secrets with Mask in every string of the
// session log. That includes the last action's description and the saved
// views.
func (c *SavedCapture) hideInSession(secrets []string) {
	var forms []string
	for _, s := range dom.CleanSecrets(secrets) {
		forms = append(forms, s)
		if q := strconv.Quote(s); q[1:len(q)-1] != s {
			forms = append(forms, q[1:len(q)-1]) // as %q wrote it in a description
		}
	}
	if len(forms) == 0 {
		return
	}
	hide := func(s string) string {
		for _, f := range forms {
			if s == f || utf8.RuneCountInString(f) >= dom.MinSubstringSecret {
				s = strings.ReplaceAll(s, f, dom.Mask)
			}
		}
		return hideQuoted(s, forms)
	}
	for i := range c.Session {
		b, err := json.Marshal(c.Session[i])
		if err != nil {
			continue
		}
		var clean dom.SessionStep
		if json.Unmarshal(capture.RewriteJSON(b, forms, hide), &clean) == nil {
			c.Session[i] = clean
		}
	}
	c.LastActionDesc = hide(c.LastActionDesc)
	c.Text, c.Tree = hide(c.Text), hide(c.Tree)
	c.Flat = capture.RewriteJSON(c.Flat, forms, hide)
}

// hideQuoted masks a short secret where a description quotes it whole
// (`type "abc" on node_6`). There it is the secret, not part of a word.
func hideQuoted(desc string, forms []string) string {
	for _, f := range forms {
		desc = strings.ReplaceAll(desc, `"`+f+`"`, `"`+dom.Mask+`"`)
		desc = strings.ReplaceAll(desc, `"`+f+`\n"`, `"`+dom.Mask+`\n"`)
	}
	return desc
}

// aimsAtSecret reports whether a step aims at a sensitive field (see
// scrubSession).
func aimsAtSecret(snap *dom.Snapshot, st sessionStep, s dom.SessionStep) bool {
	ids := []string{st.ID}
	if st.Target != nil {
		ids = append(ids, st.Target.ID)
	}
	if s.Result != nil {
		ids = append(ids, s.Result.ID)
	}
	// IDs are never given twice in a session: one in snap is the node.
	for _, id := range ids {
		if id != "" && snap.Node(id).Sensitive() {
			return true
		}
	}
	if q := st.Target; q != nil && snap != nil {
		if q.ID == "" && (q.Role != "" || q.Name != "" || q.NameContains != "" || q.Text != "" || q.TestID != "") {
			for _, n := range query.FindNodes(snap, *q) {
				if n.Sensitive() {
					return true
				}
			}
		}
		if id, ok := strings.CutPrefix(strings.TrimSpace(q.CSS), "#"); ok && plainCSSIdent(id) {
			found := false
			dom.Walk(snap.Root, func(n *dom.VirtualNode) {
				found = found || n.Attrs["id"] == id && n.Sensitive()
			})
			if found {
				return true
			}
		}
	}
	for _, id := range ids {
		if id != "" && maskedInView(s.After, id) {
			return true
		}
	}
	if q := st.Target; q != nil {
		for _, v := range []string{q.Name, q.NameContains, q.Text, q.TestID, q.CSS, q.ID} {
			if namesSecret(v) {
				return true
			}
		}
	}
	return false
}

// plainCSSIdent reports whether s is an id a CSS "#id" names as it is.
func plainCSSIdent(s string) bool {
	return s != "" && !strings.ContainsAny(s, " >+~.:[#,()*")
}

// maskedInView reports whether the flat text view shows node id's value
// masked. domscope made the view after a step, and it masks a sensitive
// field's value (`[6] textbox "Password": ••••`).
func maskedInView(view, id string) bool {
	if view == "" {
		return false
	}
	tag := "[" + strings.TrimPrefix(dom.NormalizeID(id), "node_") + "]"
	for _, line := range strings.Split(view, "\n") {
		line = strings.TrimLeft(line, " ")
		if strings.HasPrefix(line, tag+" ") && strings.HasSuffix(line, ": "+dom.Mask) {
			return true
		}
	}
	return false
}

// secretWords are words a target's name, test id or selector holds when
// it is a field for a secret.
var secretWords = regexp.MustCompile(`(?i)(^|[^a-z])(pass(word|wd|code|phrase)?|pwd|pin|otp|cvc|cvv|csc|secret|ssn|one[ _-]?time|card[ _-]?(number|no)|security[ _-]?code|verification[ _-]?code|cc[ _-]?(number|num|csc|exp))([^a-z]|$)`)

// namesSecret reports whether a target's text names a field for a secret.
func namesSecret(s string) bool { return s != "" && secretWords.MatchString(s) }

// needsTree reports whether the session has a value typed that only the
// saved page can judge secret.
func (c *SavedCapture) needsTree() bool {
	for _, s := range c.Session {
		var st sessionStep
		if json.Unmarshal(s.Step, &st) != nil {
			continue
		}
		switch {
		case st.Action == string(dom.KindType) && st.Text != "" && !strings.HasPrefix(st.Text, dom.Mask),
			st.Action == string(dom.KindSelect) && st.Value != "" && st.Value != dom.Mask,
			st.Action == string(dom.KindKey) && st.Key != dom.Mask:
			return true
		}
	}
	return false
}

// safeURLs makes the URLs of a capture being opened safe to show
// (urls.Safe). That is the page's, each step's, the results' and those
// its descriptions quote. A navigate step whose URL held a credential
// keeps it hidden.
func (c *SavedCapture) safeURLs() {
	c.URL = urls.Safe(c.URL)
	c.LastActionDesc = urls.SafeIn(c.LastActionDesc)
	safeResult(c.LastAction)
	for i := range c.Session {
		s := &c.Session[i]
		s.URL, s.Desc = urls.Safe(s.URL), urls.SafeIn(s.Desc)
		safeResult(s.Result)
		var fields map[string]json.RawMessage
		var u string
		if json.Unmarshal(s.Step, &fields) != nil || json.Unmarshal(fields["url"], &u) != nil || urls.Safe(u) == u {
			continue
		}
		fields["url"] = cdpjson.Quote(urls.Safe(u))
		fields["comment"] = cdpjson.Quote("url withheld when the capture was opened: it held a password or token")
		if b, err := json.Marshal(fields); err == nil {
			s.Step = b
		}
	}
}

// safeResult makes the URLs of an action's result safe to show.
func safeResult(r *dom.ActionResult) {
	if r == nil {
		return
	}
	r.Changes.NewURL = urls.Safe(r.Changes.NewURL)
	if r.Error != nil {
		e := *r.Error
		e.Message = urls.SafeIn(e.Message)
		r.Error = &e
	}
	for i := range r.Network {
		r.Network[i].URL = urls.Redact(r.Network[i].URL)
	}
}
