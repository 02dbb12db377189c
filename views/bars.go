package views

import (
	"fmt"
	"strings"
	"time"

	"domscope/dom"
	"domscope/themes"
)

// HeaderData is what the header line shows.
type HeaderData struct {
	URL, Title, Target string
	State              dom.ConnState
	Offline            string // non-empty: a saved capture (no browser); the file name
	Seq                int
	Capture            time.Duration
	Age                time.Duration
	HasSnap            bool
	Stale              string // "page changed", ... (r refreshes)
	Highlight          bool
	Viewport           string // the emulated window ("iPhone 13 390×844"); "" for the browser's own
	Follow             string // "live", "busy" (live, the page never quiet) or "paused" (follow mode, F) replaces "connected"; "" says connected
	Agent              string // "agent: 3 calls", "agent paused (p)"; "" without an agent
}

// Header renders the top line at exactly w cells. The connection state
// and snapshot facts are laid out first, so truncation never hides them.
func Header(st themes.Styles, d HeaderData, w int) string {
	var state string
	switch {
	case d.Offline != "":
		state = st.Warn.Render("◼ saved capture (offline)")
	case d.State == dom.Connected && d.Follow == "live":
		// connected and following the page's own changes
		state = st.OK.Render("● live")
	case d.State == dom.Connected && d.Follow == "busy":
		state = st.OK.Render("● live") + " · " + st.Warn.Render("busy")
	case d.State == dom.Connected && d.Follow == "paused":
		state = st.OK.Render("●") + " " + st.Warn.Render("paused")
	case d.State == dom.Connected:
		state = st.OK.Render("● connected")
	case d.State == dom.Reconnecting:
		state = st.Warn.Render("◌ reconnecting…")
	default:
		state = st.Error.Render("✗ page lost (T picks a tab)")
	}
	snap := st.Dim.Render("no snapshot yet")
	switch {
	case d.HasSnap && d.Offline != "":
		snap = "captured " + age(d.Age)
	case d.HasSnap:
		snap = fmt.Sprintf("snapshot #%d, %s, %s", d.Seq, Millis(d.Capture), age(d.Age))
	}
	right := state + " · " + snap
	if d.Offline == "" {
		// whether the browser outlines the selection (l toggles it)
		if d.Highlight {
			right = st.Accent.Render("hl on") + " · " + right
		} else {
			right = st.Dim.Render("hl off") + " · " + right
		}
	}
	if d.Agent != "" {
		// a paused agent is the person's to resume: it stands out
		a := st.Accent.Render(Clean(d.Agent))
		if strings.Contains(d.Agent, "paused") {
			a = st.Warn.Render(Clean(d.Agent))
		}
		right = a + " · " + right
	}
	if d.Viewport != "" {
		right = st.Accent.Render("▭ "+Clean(d.Viewport)) + " · " + right
	}
	if d.Stale != "" && (d.State == dom.Connected || d.Offline != "") {
		right += " · " + st.Warn.Render(d.Stale+" (r)")
	}
	left := st.Title.Render("domscope")
	var parts []string
	if d.URL != "" {
		parts = append(parts, Clean(d.URL))
	}
	if d.Title != "" {
		parts = append(parts, "“"+Clean(d.Title)+"”")
	}
	if d.Target != "" {
		parts = append(parts, st.Dim.Render("tab "+Trunc(Clean(d.Target), 8)))
	}
	mid := strings.Join(parts, " · ")
	avail := w - Width(left) - Width(right) - 4
	if avail < 10 {
		return Pad(left+" "+right, w)
	}
	return Pad(left+" "+Pad(mid, avail)+"   "+right, w)
}

// age says how long ago a snapshot was taken. It is "just now" for the
// first couple of seconds, then "5 s ago", "3 min ago"…
func age(d time.Duration) string {
	switch {
	case d < 2*time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}

// Busy is the footer while a browser operation runs.
func Busy(st themes.Styles, spin, label string, elapsed time.Duration, w int) string {
	s := st.Accent.Render(spin) + " " + Clean(label) + " " + st.Dim.Render(fmt.Sprintf("%.1f s", elapsed.Seconds())) +
		st.Dim.Render("  ·  esc cancels · keys still work")
	return Pad(s, w)
}
