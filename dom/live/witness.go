package live

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/live/model"
)

// witness keeps what the page showed and took away between two reads,
// from the DOM events the live model applies (Model.apply calls it). A
// toast that lives 300 ms is in no snapshot; its events say it was
// there. It outlives a model: a full capture must not lose an action's
// flashes. It also remembers which elements change by themselves (a
// clock), so an action is not credited with them.
type witness struct {
	mu    sync.Mutex
	start time.Time
	// acting is set while an action runs and settles: its changes do not
	// make an element restless.
	acting bool
	// born: nodes inserted since start (nodeKey → when).
	born map[int64]time.Time
	// toggled: the first change since start of an attribute that shows
	// or hides an element (nodeKey → its value before, and when).
	toggled map[int64]toggle
	flashes []seenFlash
	// gone: elements the events saw come and go, waiting for the page's
	// recorder to tell their life and, if bare, their text (flashrec.go).
	gone []goneEl
	// regions: live regions whose text changed since start (node id →
	// the region as last seen with text).
	regions map[int64]seenRegion
	// firstAt: elements (scoped backend ids) changed since start, and
	// when first.
	firstAt map[int64]time.Time
	// ownBorn: nodes (nodeKey) an action inserted, and when. Their
	// going later, a toast's timer, is the action's doing, not the
	// page's: it does not make their parent restless.
	ownBorn map[int64]time.Time
	// idle: the last times each element changed while no action ran.
	// One that changed three times lately changes by itself (a clock). A
	// toast's container changes twice (in, out), a late effect once.
	idle map[int64][restlessChanges]time.Time
}

type toggle struct {
	attr, was string
	had       bool
	at        time.Time
}

// seenFlash is a flash as the events showed it: where it appeared
// (backend id of the parent), its role and text, and how long it lived.
// toggled is set for a node shown and hidden again (own: its backend
// id): it counts only if the view before had it hidden.
type seenFlash struct {
	parent, own int64
	// target is the out-of-process frame it was in ("" for the page).
	// parent and own are scoped to it then (scoped).
	target     string
	role, text string
	ms         float64
	toggled    bool
}

// goneEl is an element the events saw come and go since the last word
// of the page's recorder: at is its flash in flashes, or -1 when the
// events gave no text. Then roleText reads the subtree the recorder
// sends.
type goneEl struct {
	seenFlash
	at       int
	tag, id  string
	roleText func(*cdpjson.Node) (string, string)
}

type seenRegion struct {
	backend    int64
	role, text string
}

// maxWitnessed bounds each record: a page that re-renders everything in
// a loop must not grow them without end.
const maxWitnessed = 2000

func newWitness() *witness {
	w := &witness{idle: map[int64][restlessChanges]time.Time{}, ownBorn: map[int64]time.Time{}}
	w.restart(time.Time{}, false)
	return w
}

// restart starts a new record at now; acting says an action runs.
func (w *witness) restart(now time.Time, acting bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.restartLocked(now, acting)
}

func (w *witness) restartLocked(now time.Time, acting bool) {
	w.start, w.acting = now, acting
	w.born, w.toggled, w.regions, w.flashes = map[int64]time.Time{}, map[int64]toggle{}, map[int64]seenRegion{}, nil
	w.gone = nil
	w.firstAt = map[int64]time.Time{}
}

// restless is the elements (backend ids) that changed restlessChanges
// times by themselves within span before t.
func (w *witness) restless(t time.Time, span time.Duration) map[int64]bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[int64]bool{}
	for id, at := range w.idle {
		if !at[0].IsZero() && at[0].After(t.Add(-span)) {
			out[id] = true
		}
	}
	return out
}

// restlessGap is how far apart two changes must be to be two: the
// events of one change come together. restlessChanges in restlessSpan
// make an element restless: a clock that ticks each second is.
const (
	restlessGap     = 20 * time.Millisecond
	restlessChanges = 3
	restlessSpan    = 3500 * time.Millisecond
)

// record is what the witness saw since its start, copied out.
type record struct {
	start   time.Time
	flashes []seenFlash
	regions []seenRegion
	firstAt map[int64]time.Time
}

// take copies the record out and, with next, starts a new one at now
// (acting: an action runs).
func (w *witness) take(next bool, now time.Time, acting bool) record {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := record{start: w.start, flashes: w.flashes, firstAt: w.firstAt}
	for _, g := range w.regions {
		r.regions = append(r.regions, g)
	}
	if next {
		w.restartLocked(now, acting)
	} else {
		r.flashes = append([]seenFlash(nil), r.flashes...)
		r.firstAt = maps.Clone(r.firstAt)
	}
	return r
}

// firstChange is when the first element not in skip changed (zero: none).
func (r record) firstChange(skip map[int64]bool) time.Time {
	var first time.Time
	for id, at := range r.firstAt {
		if !skip[id] && (first.IsZero() || at.Before(first)) {
			first = at
		}
	}
	for _, f := range r.flashes {
		if at := r.start.Add(time.Duration(f.ms) * time.Millisecond); first.IsZero() || at.Before(first) {
			first = at
		}
	}
	return first
}

// The hooks below run under the model's lock, from Model.apply.

// changed notes a change at n (the element, or a text's parent element).
func (w *witness) Changed(m *model.Model, n *cdpjson.Node, now time.Time) {
	w.changed(m, n, now, true)
}

// changed notes a change at n; byPage says the page may have made it by
// itself (not the late going of what an action put there).
func (w *witness) changed(m *model.Model, n *cdpjson.Node, now time.Time, byPage bool) {
	if happenedOff.Load() {
		return
	}
	if n != nil && n.NodeType != dom.ElementNode {
		n = m.Parent(n)
	}
	if n == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	id := model.Scoped(m.Scope(), n.BackendNodeID)
	if _, ok := w.firstAt[id]; !ok && len(w.firstAt) < maxWitnessed {
		w.firstAt[id] = now
	}
	if !w.acting && byPage {
		if len(w.idle) > 4*maxWitnessed {
			for k, at := range w.idle {
				if now.Sub(at[restlessChanges-1]) > restlessSpan {
					delete(w.idle, k)
				}
			}
		}
		if at := w.idle[id]; now.Sub(at[restlessChanges-1]) >= restlessGap {
			copy(at[:], at[1:])
			at[restlessChanges-1] = now
			w.idle[id] = at
		}
	}
	w.noteRegionLocked(m, n)
}

// inserted notes a node put in the tree.
func (w *witness) Inserted(m *model.Model, n *cdpjson.Node, now time.Time) {
	if happenedOff.Load() {
		return
	}
	w.mu.Lock()
	if len(w.born) < maxWitnessed {
		w.born[m.NodeKey(n)] = now
	}
	if w.acting {
		if len(w.ownBorn) >= maxWitnessed {
			for k, at := range w.ownBorn {
				if now.Sub(at) > restlessSpan {
					delete(w.ownBorn, k)
				}
			}
		}
		if len(w.ownBorn) < maxWitnessed {
			w.ownBorn[m.NodeKey(n)] = now
		}
	}
	w.mu.Unlock()
	w.Changed(m, m.Parent(n), now)
	if n.NodeType == dom.ElementNode {
		w.mu.Lock()
		w.noteRegionLocked(m, n)
		w.mu.Unlock()
	}
}

// removing notes a node about to leave the tree. One inserted since the
// start flashed: it came and went between two reads.
func (w *witness) Removing(m *model.Model, n *cdpjson.Node, now time.Time) {
	if happenedOff.Load() {
		return
	}
	p := m.Parent(n)
	w.mu.Lock()
	_, own := w.ownBorn[m.NodeKey(n)]
	delete(w.ownBorn, m.NodeKey(n))
	w.mu.Unlock()
	w.changed(m, p, now, !own)
	if m.InUserAgentShadow(n) {
		return // a field's own text: its value, typed and cleared
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.flashes) >= maxWitnessed {
		return
	}
	// The outermost nodes born since the start, each with its text.
	stack := []*cdpjson.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if at, ok := w.born[m.NodeKey(x)]; ok {
			var pb int64
			if q := m.Parent(x); q != nil {
				pb = model.Scoped(m.Scope(), q.BackendNodeID)
			}
			f := seenFlash{parent: pb, target: m.FrameTarget(), ms: ms(now.Sub(at))}
			g := goneEl{at: -1}
			if f.role, f.text = m.RoleText(x); f.text != "" {
				g.at = len(w.flashes)
				w.flashes = append(w.flashes, f)
			} else if x.NodeType == dom.ElementNode && x.Cut() {
				g.roleText = m.GoneRoleText(x)
			}
			if x.NodeType == dom.ElementNode && (g.at >= 0 || g.roleText != nil) && len(w.gone) < maxWitnessed {
				g.seenFlash, g.tag = f, x.NodeName
				g.id, _ = attrOf(x, "id")
				w.gone = append(w.gone, g)
			}
			continue
		}
		stack = append(stack, x.Children...)
		stack = append(stack, x.ShadowRoots...)
	}
}

// Reported joins what m's recorder sent to the elements the events
// just saw go. It comes after the removals it tells of, in the same
// order: the latest one of the same tag and id is the one. Its life is
// the page's: the events' times are when they reached us, in bursts on
// a loaded machine. A bare one gets its text. Those left then were not
// told of (too many at once, or the recorder came late): they stay as
// the events gave them.
func (w *witness) Reported(m *model.Model, gone []model.Gone) {
	if happenedOff.Load() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	target := m.FrameTarget()
	for k := len(gone) - 1; k >= 0; k-- {
		n := gone[k].Node
		if n == nil || n.NodeType != dom.ElementNode {
			continue
		}
		id, _ := attrOf(n, "id")
		for i := len(w.gone) - 1; i >= 0; i-- {
			g := w.gone[i]
			if g.target != target || !strings.EqualFold(g.tag, n.NodeName) || g.id != id {
				continue
			}
			w.gone = slices.Delete(w.gone, i, i+1)
			switch {
			case g.at >= 0 && g.at < len(w.flashes):
				w.flashes[g.at].ms = gone[k].Ms
			case g.roleText != nil && !gone[k].Whole:
				f := g.seenFlash
				f.ms = gone[k].Ms
				if f.role, f.text = g.roleText(n); f.text != "" && len(w.flashes) < maxWitnessed {
					w.flashes = append(w.flashes, f)
				}
			}
			break
		}
	}
	w.gone = slices.DeleteFunc(w.gone, func(g goneEl) bool { return g.target == target })
}

// attr notes an attribute about to change (set false: removed). The
// attributes that show and hide an element are followed: one that comes
// back to its value before flashed the element, if it was hidden then.
func (w *witness) Attr(m *model.Model, n *cdpjson.Node, name, value string, set bool, now time.Time) {
	if happenedOff.Load() {
		return
	}
	switch strings.ToLower(name) {
	case "hidden", "style", "class", "aria-hidden", "open":
	default:
		w.Changed(m, n, now)
		return
	}
	old, had := attrOf(n, name)
	w.Changed(m, n, now)
	w.mu.Lock()
	defer w.mu.Unlock()
	t, ok := w.toggled[m.NodeKey(n)]
	if !ok {
		if len(w.toggled) < maxWitnessed && !w.start.IsZero() {
			w.toggled[m.NodeKey(n)] = toggle{attr: name, was: old, had: had, at: now}
		}
		return
	}
	if t.attr != name || t.had != set || (set && t.was != value) {
		return
	}
	delete(w.toggled, m.NodeKey(n))
	if len(w.flashes) >= maxWitnessed {
		return
	}
	if role, text := m.RoleText(n); text != "" {
		w.flashes = append(w.flashes, seenFlash{own: model.Scoped(m.Scope(), n.BackendNodeID), target: m.FrameTarget(), role: role, text: text, ms: ms(now.Sub(t.at)), toggled: true})
	}
}

// noteRegionLocked notes a change inside a live region. w.mu is held.
func (w *witness) noteRegionLocked(m *model.Model, n *cdpjson.Node) {
	if w.start.IsZero() || m.Scope() != 0 {
		// An out-of-process frame's regions are said from its reads
		// (foreignAnnounced).
		return
	}
	for x, depth := n, 0; x != nil && depth < 64; x, depth = m.Parent(x), depth+1 {
		if x.NodeType != dom.ElementNode {
			continue
		}
		role, live := liveRole(x)
		if !live {
			continue
		}
		if _, text := m.RoleText(x); text != "" {
			w.regions[x.NodeID] = seenRegion{backend: x.BackendNodeID, role: role, text: text}
		}
		return
	}
}

// liveRole is the role of a live region (role alert, status or log, or
// aria-live other than off), and whether n is one.
func liveRole(n *cdpjson.Node) (string, bool) {
	role, _ := attrOf(n, "role")
	switch role {
	case "alert", "status", "log":
		return role, true
	}
	if l, ok := attrOf(n, "aria-live"); ok && l != "off" {
		return "live", true
	}
	return "", false
}

func attrOf(n *cdpjson.Node, name string) (string, bool) {
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if strings.EqualFold(n.Attributes[i], name) {
			return n.Attributes[i+1], true
		}
	}
	return "", false
}

// maxFlashText bounds a flashed node's text.
const maxFlashText = model.MaxFlashText

func ms(d time.Duration) float64 { return float64(d.Milliseconds()) }
