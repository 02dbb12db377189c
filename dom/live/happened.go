package live

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/live/model"
	"domscope/dom/urls"
)

// happenedState is what the service keeps between actions to say what
// one did (guarded by mu).
type happenedState struct {
	// opened counts the page's Page.windowOpen events.
	opened int
	// openedTargets are the targets already reported opened.
	openedTargets map[string]bool
	// last is the snapshot the last action answered with, taken at, and
	// that action's kind: what came after it is its late effect.
	last     *dom.Snapshot
	lastAt   time.Time
	lastKind dom.ActionKind
	// perfOn is the page the Performance domain is on for.
	perfOn dom.Page
}

// watchOpens counts the page's window opens: a link to _blank, a
// window.open, a form aimed at another window.
func (s *Service) watchOpens(pctx context.Context, p dom.Page) {
	s.forward(pctx, p, []string{"Page.windowOpen"}, func(string, json.RawMessage) {
		s.mu.Lock()
		if s.page == p {
			s.happened.opened++
		}
		s.mu.Unlock()
	})
}

// openedSince lists the tabs the page opened since its count was n: the
// targets it is the opener of, not reported yet.
func (s *Service) openedSince(ctx context.Context, page dom.Page, n int) []dom.TabOpened {
	s.mu.Lock()
	opened := s.happened.opened
	s.mu.Unlock()
	if opened == n {
		return nil
	}
	var r struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
			Title    string `json:"title"`
			URL      string `json:"url"`
			OpenerID string `json:"openerId"`
		} `json:"targetInfos"`
	}
	// The new target may come a moment after the window open: look a few
	// times, briefly.
	var out []dom.TabOpened
	for try := 0; try < 10 && len(out) == 0; try++ {
		if try > 0 {
			time.Sleep(20 * time.Millisecond)
		}
		if err := s.call(ctx, page, "Target.getTargets", nil, &r); err != nil {
			return nil
		}
		s.mu.Lock()
		if s.happened.openedTargets == nil {
			s.happened.openedTargets = map[string]bool{}
		}
		for _, t := range r.TargetInfos {
			if t.OpenerID != page.TargetID() || t.Type != "page" || s.happened.openedTargets[t.TargetID] {
				continue
			}
			s.happened.openedTargets[t.TargetID] = true
			out = append(out, dom.TabOpened{Target: t.TargetID, URL: urls.Safe(t.URL), Title: t.Title})
		}
		s.mu.Unlock()
	}
	return out
}

// happenedOff turns off what an action reports beyond its diff: the
// witness's bookkeeping, flashes, announcements, late effects and errors
// seen. Only benchmarks set it, to weigh that work (export_test.go).
var happenedOff atomic.Bool

// judge gives res its verdict, and what flashed and was announced while
// it ran. prev and next are the snapshots before and after (next nil
// when none was taken).
func (s *Service) judge(res *dom.ActionResult, rec record, prev, next *dom.Snapshot, restless map[int64]bool) {
	if next != nil && !happenedOff.Load() {
		res.Flashed = flashesOf(rec.flashes, prev, next, restless)
		for _, g := range rec.regions {
			n := nodeByBackend(next, g.backend)
			if n == nil || restless[g.backend] {
				continue // it went: a flash, if it had text
			}
			res.Announced = append(res.Announced, dom.Announcement{ID: n.ID, Role: g.role, Text: g.text})
		}
		res.Announced = append(res.Announced, foreignAnnounced(prev, next)...)
	}
	for _, c := range res.Changes.Nodes {
		if c.Kind == "state" && c.What == "focused" && c.To == "true" {
			res.Focus = c.ID
		}
	}
	// Focus on the node acted on is no news: a click focuses a button.
	focusMoved := res.Focus != "" && res.Focus != res.ID
	switch {
	case res.Dialog != nil:
		res.Effect = dom.EffectDialog
	case len(res.TabsOpened) > 0:
		res.Effect = dom.EffectNewTab
	case res.Changes.Navigated:
		res.Effect = dom.EffectNavigated
	case len(res.Changes.Flat) > 0 || len(res.Flashed) > 0 || len(res.Announced) > 0 || otherThanFocus(res.Changes.Nodes):
		res.Effect = dom.EffectChanged
	case focusMoved:
		res.Effect = dom.EffectFocusOnly
	default:
		res.Effect = dom.EffectNone
	}
}

// otherThanFocus reports whether a node changed in more than its focus
// (a state the view may not print: a value, a checked box).
func otherThanFocus(cs []dom.Change) bool {
	for _, c := range cs {
		if c.Kind != "state" || c.What != "focused" {
			return true
		}
	}
	return false
}

// flashesOf turns what the witness saw into flashes named by the nodes
// of next (or prev) they appeared in. A node shown and hidden again
// counts only if prev had it hidden.
func flashesOf(seen []seenFlash, prev, next *dom.Snapshot, restless map[int64]bool) []dom.Flash {
	var out []dom.Flash
	for _, f := range seen {
		if restless[f.parent] || restless[f.own] {
			continue // a clock's digits come and go
		}
		if f.ms < minFlash {
			continue // a re-render's swap: nobody saw it
		}
		if !f.toggled && stillShows(next, f.target, f.parent, f.text) {
			continue // re-rendered: the same text is there again
		}
		id := ""
		if f.toggled {
			n := nodeIn(prev, f.target, f.own)
			if n == nil || n.Hidden == "" {
				continue
			}
			id = n.ID
		} else if n := nodeIn(next, f.target, f.parent); n != nil {
			id = n.ID
		} else if n := nodeIn(prev, f.target, f.parent); n != nil {
			id = n.ID
		}
		out = append(out, dom.Flash{ID: id, Role: f.role, Text: f.text, Ms: f.ms})
	}
	return out
}

// nodeByBackend finds the node of s with backend id b (nil if none).
func nodeByBackend(s *dom.Snapshot, b int64) *dom.VirtualNode {
	if s == nil || b == 0 {
		return nil
	}
	var found *dom.VirtualNode
	dom.Walk(s.Root, func(n *dom.VirtualNode) {
		if found == nil && n.BackendID == b && n.TargetID == s.TargetID {
			found = n
		}
	})
	return found
}

// nodeIn finds the node of s with the witness's backend id b, in the
// out-of-process frame target ("" for the page).
func nodeIn(s *dom.Snapshot, target string, b int64) *dom.VirtualNode {
	if target == "" {
		return nodeByBackend(s, b)
	}
	if s == nil || b == 0 {
		return nil
	}
	b = model.Unscoped(b)
	var found *dom.VirtualNode
	dom.Walk(s.Root, func(n *dom.VirtualNode) {
		if found == nil && n.BackendID == b && n.TargetID == target {
			found = n
		}
	})
	return found
}

// flatChanges is the view's change from prev's lines to next's, by node.
// A line that changed only in focus is left out (the verdict names the
// focus). So are the lines of restless elements (a clock): they are
// counted in background.
func flatChanges(a, b []flatten.Line, prev, next *dom.Snapshot, restless map[int64]bool) (flat []string, background int) {
	changes := flatten.LineDiffByID(a, b)
	for i := 0; i < len(changes); i++ {
		c := changes[i]
		if c.Mark == '-' {
			// A removed subtree is its top line: what was under it went too.
			depth, j := indent(c.Old), i+1
			for j < len(changes) && changes[j].Mark == '-' && indent(changes[j].Old) > depth {
				j++
			}
			if n := j - i - 1; n > 0 {
				flat = append(flat, fmt.Sprintf("%s (and %d lines inside)", c.Line(), n))
				i = j - 1
				continue
			}
		}
		if c.Mark == '~' && withoutFocus(c.Old) == withoutFocus(c.New) {
			continue
		}
		if len(restless) > 0 && c.ID != "" && (isRestless(next.Node(c.ID), restless) || isRestless(prev.Node(c.ID), restless)) {
			background++
			continue
		}
		in := next
		if c.Mark == '-' {
			in = prev
		}
		line := c.Line()
		if c.ID != "" {
			line = line[:2] + withRole(line[2:], in.Node(c.ID))
		}
		flat = append(flat, line)
	}
	return flat, background
}

// withRole is a bare text line of a live region (an alert, a status)
// with the region's role, as the announcements say it:
// `alert "Invalid email address"`. Other lines are as they are.
func withRole(line string, n *dom.VirtualNode) string {
	role := regionRole(n)
	body := strings.TrimLeft(line, " ")
	if role == "" || strings.HasPrefix(body, "[") || strings.HasPrefix(body, "… ") {
		return line // a node's line says its role; "… 3 more" is no text
	}
	if strings.HasPrefix(body, `\[`) {
		body = body[1:] // the view's escape of a text that looks like an id
	}
	return line[:len(line)-len(body)] + role + ` "` + strings.ReplaceAll(body, `"`, `\"`) + `"`
}

// regionRole is the role of the live region n (a text line's node) is
// in: its own, or an element's up to maxRegionDepth above ("" if none).
func regionRole(n *dom.VirtualNode) string {
	for depth := 0; n != nil && depth <= maxRegionDepth; n, depth = n.Parent, depth+1 {
		if n.NodeType != dom.ElementNode {
			continue
		}
		if r := ownRegionRole(n); r != "" {
			return r
		}
	}
	return ""
}

// ownRegionRole is the role of element n if it is a live region: role
// alert, status or log, or "live" for aria-live (as the witness says).
func ownRegionRole(n *dom.VirtualNode) string {
	switch r := n.Attrs["role"]; r {
	case "alert", "status", "log":
		return r
	}
	if l, ok := n.Attrs["aria-live"]; ok && l != "off" {
		return "live"
	}
	return ""
}

// foreignAnnounced are the live regions in out-of-process frames whose
// text changed from prev to next, as two reads of them show. What came
// and went there between two reads is a flash (framefollow.go).
func foreignAnnounced(prev, next *dom.Snapshot) []dom.Announcement {
	if !sameDoc(prev, next) || !slices.ContainsFunc(next.Frames, func(f dom.FrameInfo) bool { return f.OutOfProcess }) {
		return nil // no walk of a page without such frames
	}
	var out []dom.Announcement
	dom.Walk(next.Root, func(n *dom.VirtualNode) {
		if n.NodeType != dom.ElementNode || n.TargetID == next.TargetID || n.Hidden != "" || len(out) >= dom.MaxListedChanges {
			return
		}
		role := ownRegionRole(n)
		if role == "" {
			return
		}
		text := nodeText(n)
		if p := prev.Node(n.ID); text == "" || (p != nil && nodeText(p) == text) {
			return
		}
		out = append(out, dom.Announcement{ID: n.ID, Role: role, Text: text})
	})
	return out
}

// maxRegionDepth bounds how far above a text line its live region is
// looked for: a region's own words, not a whole page under aria-live.
const maxRegionDepth = 3

// isRestless reports whether n, or the element its text is in, changes
// by itself.
// A line of text holds the text of its element's inline children too
// (`Time: <span>12</span>`): those count.
func isRestless(n *dom.VirtualNode, restless map[int64]bool) bool {
	if n == nil {
		return false
	}
	if n.NodeType != dom.ElementNode && n.Parent != nil {
		n = n.Parent
	}
	if restless[n.BackendID] {
		return true
	}
	seen, found := 0, false
	stack := append([]*dom.VirtualNode(nil), n.Children...)
	for len(stack) > 0 && seen < maxRestlessWalk && !found {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		seen++
		found = restless[x.BackendID]
		stack = append(stack, x.Children...)
	}
	return found
}

// maxRestlessWalk bounds the nodes under a line looked at.
const maxRestlessWalk = 200

// withoutFocus is a view line without its focused mark.
func withoutFocus(l string) string {
	l = strings.TrimLeft(l, " ")
	if i := strings.Index(l, " focused"); i >= 0 && (i+8 == len(l) || l[i+8] == ' ') {
		l = l[:i] + l[i+8:]
	}
	return l
}

// later is what changed since the last action answered, when the page
// is still the same document: that action's late effect. snap is the
// page now. It takes the witness's record (and starts one for the action
// to come, at mark).
func (s *Service) later(snap *dom.Snapshot, rec record, restless map[int64]bool) *dom.Later {
	s.mu.Lock()
	h := s.happened
	s.mu.Unlock()
	if h.last == nil || snap == nil || h.last.URL != snap.URL || h.last.TargetID != snap.TargetID || rec.start.IsZero() {
		return nil
	}
	first := rec.firstChange(restless)
	if first.IsZero() && len(rec.flashes) == 0 {
		return nil
	}
	var flat []string
	if h.last != snap {
		flat, _ = flatChanges(s.linesOf(h.last), s.linesOf(snap), h.last, snap, restless)
	}
	l := &dom.Later{Action: h.lastKind, Flashed: flashesOf(rec.flashes, h.last, snap, restless)}
	l.Flat, l.FlatMore = flat, 0
	if len(l.Flat) > dom.MaxListedChanges {
		l.Flat, l.FlatMore = l.Flat[:dom.MaxListedChanges], len(l.Flat)-dom.MaxListedChanges
	}
	if len(l.Flat) == 0 && len(l.Flashed) == 0 {
		return nil
	}
	if !first.IsZero() {
		l.AfterMs = max(0, ms(first.Sub(h.lastAt)))
	}
	return l
}

// answered remembers the snapshot an action answered with: what comes
// after it is its late effect.
func (s *Service) answered(kind dom.ActionKind, next *dom.Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.happened.last, s.happened.lastAt, s.happened.lastKind = next, time.Now(), kind
}

// sameDoc reports whether two snapshots show one document.
func sameDoc(a, b *dom.Snapshot) bool {
	return a != nil && b != nil && a.URL == b.URL && a.TargetID == b.TargetID && a.Root != nil && b.Root != nil && a.Root.ID == b.Root.ID
}

// lateChanges reports whether the page changed by itself since the last
// action answered (restless elements aside), on the same document.
func (s *Service) lateChanges(idle record, restless map[int64]bool) bool {
	s.mu.Lock()
	last := s.happened.last
	s.mu.Unlock()
	return last != nil && !idle.start.IsZero() && (!idle.firstChange(restless).IsZero() || len(idle.flashes) > 0)
}

// maxErrorsSeen bounds errors_seen.
const maxErrorsSeen = 10

// errorsSeen lists the errors the page shows in snap and those res saw
// go by: alerts, invalid fields and their messages, console errors and
// failed requests.
func errorsSeen(res *dom.ActionResult, snap *dom.Snapshot) []string {
	var out []string
	add := func(s string) {
		if s != "" && len(out) < maxErrorsSeen && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if snap != nil {
		var invalid []*dom.VirtualNode
		dom.Walk(snap.Root, func(n *dom.VirtualNode) {
			if n.NodeType != dom.ElementNode || n.Hidden != "" {
				return
			}
			if n.Attrs["role"] == "alert" {
				add("alert " + strconv.Quote(nodeText(n)))
			}
			if v := n.Attrs["aria-invalid"]; v != "" && v != "false" {
				invalid = append(invalid, n)
			}
		})
		byAttr := messagesOf(snap, invalid)
		for _, f := range invalid {
			msg := ""
			for _, attr := range []string{"aria-errormessage", "aria-describedby"} {
				for _, ref := range strings.Fields(f.Attrs[attr]) {
					if m := byAttr[ref]; m != nil && m.Hidden == "" {
						msg = strings.TrimSpace(msg + " " + nodeText(m))
					}
				}
				if msg != "" {
					break
				}
			}
			e := "invalid [" + strings.TrimPrefix(f.ID, "node_") + "] " + strconv.Quote(dom.Clip(f.Name, 60))
			if msg != "" {
				e += ": " + strconv.Quote(msg)
			}
			add(e)
		}
	}
	for _, f := range res.Flashed {
		if f.Role == "alert" {
			add("alert " + strconv.Quote(f.Text) + " (flashed)")
		}
	}
	for _, c := range res.Console {
		if c.Level == "error" {
			add("console " + strconv.Quote(dom.Clip(c.Text, maxFlashText)))
		}
	}
	for _, r := range res.Network {
		if r.Status >= 400 || r.Failed {
			what := strconv.Itoa(r.Status)
			if r.Failed {
				what = r.Error
			}
			add(r.Method + " " + r.URL + " " + what)
		}
	}
	return out
}

// messagesOf finds the elements the invalid fields name as their
// messages, by id attribute. Only a page with invalid fields pays for
// the walk (a map of every id at 10,000 elements was most of
// errorsSeen's time).
func messagesOf(snap *dom.Snapshot, invalid []*dom.VirtualNode) map[string]*dom.VirtualNode {
	if len(invalid) == 0 {
		return nil
	}
	byAttr := map[string]*dom.VirtualNode{}
	for _, f := range invalid {
		for _, attr := range []string{"aria-errormessage", "aria-describedby"} {
			for _, ref := range strings.Fields(f.Attrs[attr]) {
				byAttr[ref] = nil
			}
		}
	}
	if len(byAttr) == 0 {
		return nil
	}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if n.NodeType != dom.ElementNode {
			return
		}
		if id := n.Attrs["id"]; id != "" {
			if m, wanted := byAttr[id]; wanted && m == nil {
				byAttr[id] = n
			}
		}
	})
	return byAttr
}

// nodeText is the visible text under n, clipped.
func nodeText(n *dom.VirtualNode) string {
	var b strings.Builder
	dom.Walk(n, func(x *dom.VirtualNode) {
		if x.NodeType == dom.TextNode && x.Hidden == "" && b.Len() < 4*maxFlashText {
			b.WriteString(x.Text)
			b.WriteByte(' ')
		}
	})
	return dom.Clip(strings.Join(strings.Fields(b.String()), " "), maxFlashText)
}

// Later says what changed by itself since the last action answered, up
// to snap (a read made since): that action's late effects. It is said
// once: snap becomes what the next late effects are measured from.
func (s *Service) Later(snap *dom.Snapshot) *dom.Later {
	if snap == nil {
		return nil
	}
	s.opMu.Lock()
	defer s.opMu.Unlock()
	now := time.Now()
	restless := s.wit.restless(now, restlessSpan)
	rec := s.wit.take(true, now, false)
	if !s.lateChanges(rec, restless) {
		return nil
	}
	l := s.later(snap, rec, restless)
	s.mu.Lock()
	if sameDoc(s.happened.last, snap) {
		s.happened.last = snap
	}
	s.mu.Unlock()
	return l
}

// minFlash is the shortest life of a node that counts as a flash.
const minFlash = 50

// stillShows reports whether the node with backend id parent in snap
// holds text: a node removed and put back by a re-render did not flash.
func stillShows(snap *dom.Snapshot, target string, parent int64, text string) bool {
	n := nodeIn(snap, target, parent)
	return n != nil && strings.Contains(nodeText(n), text)
}

// indent is how deep a view line is indented.
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
