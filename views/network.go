package views

import (
	"fmt"
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/themes"
)

// Request is one request of an action as one short item, such as
// "POST /submit 201 34 ms" or "GET /api/slow … pending 500 ms". A failed
// one reads "GET http://127.0.0.1:1/nothing ✗ net::ERR_CONNECTION_REFUSED".
// origin ("http://host:port") is dropped from URLs on the page's own
// origin. urlMax bounds the URL's width. The engine redacted the URL (no
// query value, no user info). It is cleaned here as any page string is.
func Request(st themes.Styles, r dom.NetworkRequest, origin string, urlMax int) string {
	u := Clean(r.URL)
	if origin != "" {
		if rest, ok := strings.CutPrefix(u, origin); ok && strings.HasPrefix(rest, "/") {
			u = rest
		}
	}
	s := Clean(r.Method) + " " + Trunc(u, urlMax)
	ms := strconv.FormatFloat(r.Ms, 'f', 0, 64) + " ms"
	switch {
	case r.Failed:
		why := "failed"
		if r.Error != "" {
			why = Trunc(Clean(r.Error), 40)
		}
		return s + " " + st.Error.Render("✗ "+why)
	case r.Pending:
		return s + " " + st.Warn.Render("… pending") + " " + st.Dim.Render(ms)
	case r.Status >= 400:
		return s + " " + st.Error.Render(strconv.Itoa(r.Status)) + " " + st.Dim.Render(ms)
	}
	return s + " " + st.OK.Render(strconv.Itoa(r.Status)) + " " + st.Dim.Render(ms)
}

// NetworkLines packs the requests of the last action into at most n lines
// of w cells. "network: " comes first and items are joined with " · ".
// What does not fit is counted at the end ("+3 more (d lists them)"). No
// requests: one dim line that says so.
func NetworkLines(st themes.Styles, reqs []dom.NetworkRequest, origin string, w, n int) []string {
	if n < 1 {
		return nil
	}
	if len(reqs) == 0 {
		return []string{st.Dim.Render("network: no requests")}
	}
	const sep = " · "
	more := func(k int) string { return fmt.Sprintf("+%d more (d lists them)", k) }
	var lines []string
	cur, empty := "network: ", true
	i := 0
	for i < len(reqs) {
		it := Request(st, reqs[i], origin, max(20, w/3))
		add := it
		if !empty {
			add = sep + it
		}
		// the last line keeps room for the count of what is left
		lastLine := len(lines) == n-1
		tail := 0
		if rest := len(reqs) - i - 1; lastLine && rest > 0 {
			tail = Width(sep + more(rest))
		}
		switch {
		case Width(cur)+Width(add)+tail <= w:
			cur += add
		case empty: // one item wider than a line: cut it
			cur += Trunc(it, max(w-Width(cur)-tail, 8))
		case lastLine:
			return append(lines, cur+st.Dim.Render(sep+more(len(reqs)-i)))
		default:
			lines = append(lines, cur)
			cur, empty = "  ", true
			continue
		}
		empty = false
		i++
	}
	return append(lines, cur)
}

// Origin is "scheme://host" of a URL, or "".
func Origin(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	j := strings.IndexAny(u[i+3:], "/?#")
	if j < 0 {
		return u
	}
	return u[:i+3+j]
}

// networkRoom is how many lines the details pane has for the requests.
// That is what is left above the changes line, at most 3.
func networkRoom(h, used int, changes bool) int {
	if changes {
		h--
	}
	return min(3, h-used)
}
