package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
)

// Responses are short text: an agent pays for every token it reads. Page
// strings in them are written as JSON strings, escaped as the json
// outputs are. That covers titles, dialog and console messages, names. So
// no control character or escape sequence of the page reaches the agent
// raw.

// quote is s as an escaped JSON string, quotes included.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(flatten.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
}

// bare is s escaped as in quote, without the quotes (URLs).
func bare(s string) string {
	q := quote(s)
	return q[1 : len(q)-1]
}

// maxListed bounds the requests and console entries a result lists.
const maxListed = 10

// resultText is an ActionResult in a few lines. First what was done and
// whether it worked. Then only what happened: navigation, dialog,
// requests, console, the view's changes.
func resultText(res *dom.ActionResult, view string) string {
	var b strings.Builder
	what := string(res.Action)
	if res.ID != "" {
		what += " [" + strings.TrimPrefix(res.ID, "node_") + "]"
	}
	status := verdict(res)
	if !res.Success && (res.Error == nil || res.Error.Code != dom.ExpectationFailed) {
		status = "failed"
	}
	if res.Typed == "keys" {
		status += ", typed key by key"
	}
	fmt.Fprintf(&b, "%s: %s, %.0f ms", what, status, res.DurationMs)
	if res.Changes.Unsettled {
		b.WriteString(", the page was still changing when the settle wait ended")
	}
	b.WriteByte('\n')
	if m := res.Metrics; m != nil {
		fmt.Fprintf(&b, "metrics: nodes %+d (%d), JS heap %+.1f MB (%.1f MB), layouts %d, style recalcs %d\n",
			m.Nodes, m.NodesAfter, float64(m.JSHeapBytes)/1e6, float64(m.JSHeapAfter)/1e6, m.Layouts, m.StyleRecalcs)
	}
	if res.Expected != "" {
		b.WriteString("expectation " + res.Expected + "\n")
	}
	writeLater(&b, res.Later)
	writeFlashes(&b, "flashed", res.Flashed)
	writeAnnounced(&b, res.Announced, res.Changes.Flat)
	if len(res.ErrorsSeen) > 0 {
		b.WriteString("errors seen: " + strings.Join(res.ErrorsSeen, "; ") + "\n")
	}
	if res.Changes.Navigated && !strings.HasPrefix(view, "navigated to ") {
		fmt.Fprintf(&b, "navigated to %s\n", bare(res.Changes.NewURL))
	}
	if d := res.Dialog; d != nil {
		fmt.Fprintf(&b, "dialog: %s %s is open and blocks the page: call dom_dialog to accept or dismiss it\n", d.Type, quote(dom.Clip(d.Message, 300)))
	}
	writeRequests(&b, res.Network)
	writeConsole(&b, res.Console)
	if view != "" {
		b.WriteString(view)
	}
	return b.String()
}

// verdict is what an action did, in a few words (dom.Effect).
func verdict(res *dom.ActionResult) string {
	focus := ""
	if res.Focus != "" && res.Focus != res.ID {
		focus = ", focus on [" + strings.TrimPrefix(res.Focus, "node_") + "]"
	}
	switch res.Effect {
	case dom.EffectNone:
		return "no visible change"
	case dom.EffectFocusOnly:
		if focus == "" {
			return "no visible change but focus"
		}
		return "only focus moved" + focus[len(", focus"):]
	case dom.EffectNewTab:
		var parts []string
		for _, t := range res.TabsOpened {
			parts = append(parts, fmt.Sprintf("opened a new tab %s %s (%s)", t.Target, quote(dom.Clip(t.Title, 100)), bare(t.URL)))
		}
		return strings.Join(parts, "; ") + ": dom_tabs select it to act there"
	case dom.EffectChanged, dom.EffectNavigated, dom.EffectDialog:
		return string(res.Effect) + focus
	}
	return "ok"
}

// writeFlashes lists nodes that came and went: role "text" (0.3 s).
func writeFlashes(b *strings.Builder, what string, fs []dom.Flash) {
	if len(fs) == 0 {
		return
	}
	b.WriteString(what + ":")
	for i, f := range fs {
		if i == maxListed {
			fmt.Fprintf(b, " … %d more", len(fs)-maxListed)
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(' ')
		if f.Role != "" {
			b.WriteString(f.Role + " ")
		}
		fmt.Fprintf(b, "%s (%.1f s)", quote(f.Text), f.Ms/1000)
	}
	b.WriteByte('\n')
}

// writeAnnounced lists the live regions that spoke: role "text" [id].
// One the view's diff already shows with its role is not said twice.
func writeAnnounced(b *strings.Builder, all []dom.Announcement, flat []string) {
	var as []dom.Announcement
	for _, a := range all {
		if !inDiff(flat, a.Role+" "+quote(a.Text)) {
			as = append(as, a)
		}
	}
	if len(as) == 0 {
		return
	}
	b.WriteString("announced:")
	for i, a := range as {
		if i == maxListed {
			fmt.Fprintf(b, " … %d more", len(as)-maxListed)
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, " %s %s [%s]", a.Role, quote(a.Text), strings.TrimPrefix(a.ID, "node_"))
	}
	b.WriteByte('\n')
}

// inDiff reports whether a line of flat adds or changes to line.
func inDiff(flat []string, line string) bool {
	for _, l := range flat {
		if len(l) > 2 && l[0] != '-' && strings.TrimLeft(l[2:], " ") == line {
			return true
		}
	}
	return false
}

// writeLater says what the page did after the last action answered: its
// late effects, apart from this action's own changes.
func writeLater(b *strings.Builder, l *dom.Later) {
	if l == nil {
		return
	}
	fmt.Fprintf(b, "since the last action (%.1f s after it):\n", l.AfterMs/1000)
	for _, line := range l.Flat {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if l.FlatMore > 0 {
		fmt.Fprintf(b, "… %d more\n", l.FlatMore)
	}
	writeFlashes(b, "flashed", l.Flashed)
}

func writeRequests(b *strings.Builder, reqs []dom.NetworkRequest) {
	var net []dom.NetworkRequest
	for _, r := range reqs {
		// data: and blob: URLs never leave the page: not requests to list
		if !strings.HasPrefix(r.URL, "data:") && !strings.HasPrefix(r.URL, "blob:") {
			net = append(net, r)
		}
	}
	if len(net) == 0 {
		return
	}
	fmt.Fprintf(b, "requests (%d):", len(net))
	for i, r := range net {
		if i == maxListed {
			fmt.Fprintf(b, " … %d more", len(net)-maxListed)
			break
		}
		out := fmt.Sprint(r.Status)
		switch {
		case r.Failed:
			out = "failed " + r.Error
		case r.Pending:
			out = "pending"
		}
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(b, "%s %s %s %s", sep, r.Method, bare(r.URL), bare(out))
	}
	b.WriteByte('\n')
}

func writeConsole(b *strings.Builder, entries []dom.ConsoleEntry) {
	for i, c := range entries {
		if i == maxListed {
			fmt.Fprintf(b, "console: … %d more\n", len(entries)-maxListed)
			break
		}
		fmt.Fprintf(b, "console %s: %s", c.Level, quote(c.Text))
		if c.Source != "" {
			fmt.Fprintf(b, " at %s", bare(c.Source))
		}
		b.WriteByte('\n')
	}
}

// diffText is the change to the flat view an action made. It lists the
// lines removed ("- ") and added ("+ "), as `run` does. A node's line
// removed and added again in a new form is written once, new, as "~ ".
// That halves the tokens, and the agent needs the new state.
func diffText(ch dom.Changes) string {
	if len(ch.Flat) == 0 {
		return "view: unchanged\n"
	}
	lines := compactDiff(ch.Flat)
	var rm, add, changed int
	for _, l := range lines {
		switch l[0] {
		case '-':
			rm++
		case '+':
			add++
		default:
			changed++
		}
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{changed, "changed"}, {rm, "removed"}, {add, "added"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	var b strings.Builder
	b.WriteString("view: " + strings.Join(parts, ", "))
	if ch.FlatMore > 0 {
		fmt.Fprintf(&b, "; %d more changes not listed: call dom_snapshot", ch.FlatMore)
	}
	b.WriteString("\n")
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// compactDiff merges a removed line whose node's line is added again in
// the same run of changes. It writes one "~ " line with the new text.
func compactDiff(flat []string) []string {
	added := map[string]int{} // node id → index of its "+ " line
	for i, l := range flat {
		if id := lineID(l); id != "" && strings.HasPrefix(l, "+") {
			added[id] = i
		}
	}
	out := make([]string, 0, len(flat))
	used := map[int]bool{}
	for i, l := range flat {
		id := lineID(l)
		switch {
		case used[i]:
			continue
		case strings.HasPrefix(l, "-") && id != "":
			if j, ok := added[id]; ok && !used[j] {
				used[j] = true
				out = append(out, "~"+flat[j][1:])
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// lineID is the node id of a diff line: "[12]" after the mark and the
// indentation. It is "" for a text line.
func lineID(l string) string {
	if len(l) < 2 {
		return ""
	}
	t := strings.TrimLeft(l[1:], " ")
	if !strings.HasPrefix(t, "[") {
		return ""
	}
	end := strings.IndexByte(t, ']')
	if end < 0 {
		return ""
	}
	return t[:end+1]
}

// pageLine heads a view: the page's title and URL.
func pageLine(snap *dom.Snapshot) string {
	return fmt.Sprintf("page: %s %s\n", quote(dom.Clip(snap.Title, 200)), bare(snap.URL))
}
