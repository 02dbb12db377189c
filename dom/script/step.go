package script

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/query"
)

// The parts of a script the step-through UI needs. Load gives the script
// as a list of steps. One step can be parsed or run on its own. Withheld
// finds the values left out when a session was recorded.

// Line is one step of a loaded script: where it was written, its text and
// what it parses to. Err says it does not parse. The UI shows why and
// lets the person edit or skip it.
type Line struct {
	No   int
	Text string
	Step Step
	Err  error
}

// Load reads a script into its steps as Run does, without running any.
// Blank lines and # or // comments are skipped.
func Load(r io.Reader) ([]Line, error) {
	lr := newLineReader(r)
	var out []Line
	no := 0
	for {
		sl, err := lr.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, dom.Errorf(dom.ValidationError, err, "reading the script after line %d", no)
		}
		no++
		text := strings.TrimSpace(sl.text)
		if sl.tooLong {
			out = append(out, Line{No: no, Err: dom.Errorf(dom.ValidationError, nil, "line %d is %d bytes long: a step may have at most %d (1 MiB)", no, sl.size, MaxScriptLine)})
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "//") {
			continue
		}
		st, perr := parseStep(text, no)
		out = append(out, Line{No: no, Text: text, Step: st, Err: perr})
	}
}

// ParseLine parses one step as Run would at line no (an edited step).
func ParseLine(text string, no int) (Step, error) { return parseStep(strings.TrimSpace(text), no) }

// Withheld reports whether a step carries dom.Mask. The recorder left it
// where the text typed, key pressed or option picked in a sensitive field
// was. Replaying it as it is would type the mask.
func Withheld(st Step) bool {
	switch st.Action {
	case "type":
		return strings.TrimSuffix(st.Text, "\n") == dom.Mask
	case "key":
		return st.Key == dom.Mask
	case "select":
		return st.Value == dom.Mask
	}
	return false
}

// Fill puts secret where a withheld step has the mask. A typed text keeps
// its closing Enter.
func Fill(st Step, secret string) Step {
	switch st.Action {
	case "type":
		enter := strings.HasSuffix(st.Text, "\n")
		st.Text = secret
		if enter && !strings.HasSuffix(secret, "\n") {
			st.Text += "\n"
		}
	case "key":
		st.Key = secret
	case "select":
		st.Value = secret
	}
	return st
}

// SecretEnv is the environment variable `domscope run` reads the value of
// withheld step n from.
func SecretEnv(n int) string { return "DOMSCOPE_SECRET_" + strconv.Itoa(n) }

// SecretFromEnv is Options.Secret reading SecretEnv(n) with getenv.
func SecretFromEnv(getenv func(string) string) func(int) (string, bool) {
	return func(n int) (string, bool) {
		v := getenv(SecretEnv(n))
		return v, v != ""
	}
}

// concealSecret masks secret wherever a result's error message repeats
// it. The engine words errors on sensitive fields without their value;
// this is the second lock.
func concealSecret(r dom.ActionResult, secret string) dom.ActionResult {
	v := strings.TrimSuffix(secret, "\n")
	if r.Error == nil || v == "" {
		return r
	}
	q := strconv.Quote(v)
	msg := strings.ReplaceAll(r.Error.Message, q[1:len(q)-1], dom.Mask)
	msg = strings.ReplaceAll(msg, v, dom.Mask)
	if msg != r.Error.Message {
		e := *r.Error
		e.Message, e.Err = msg, nil
		r.Error = &e
	}
	return r
}

// Masked is st as it may be shown or copied. Text, a key or an option
// aimed at a sensitive field (secret) is written as dom.Mask.
func Masked(st Step, secret bool) Step {
	if !secret || Withheld(st) {
		return st
	}
	switch st.Action {
	case "type":
		if st.Text != "" {
			st = Fill(st, dom.Mask)
		}
	case "key":
		if dom.TypesChar(st.Key, st.Modifiers) {
			st.Key = dom.Mask
		}
	case "select":
		if st.Value != "" {
			st.Value = dom.Mask
		}
	}
	return st
}

// TargetQuery is the query a step aims at: its "target", or its "id". It
// is nil for a step with none.
func (st Step) TargetQuery() *query.Query {
	if st.Target != nil {
		return st.Target
	}
	if st.ID != "" {
		return &query.Query{ID: st.ID}
	}
	if st.Action == "wait" && st.For != nil {
		return st.For
	}
	return nil
}
