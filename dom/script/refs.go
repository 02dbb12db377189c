package script

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/query"
)

// Refs are the node references of the snapshot text an agent acted on
// (`domscope run --refs FILE`). With them a script line can say
// {"target":{"ref":"e12"}} as the agent did. Two forms are read, line by
// line, in one file or mixed:
//
//   - Playwright's aria snapshot: `- button "Submit" [ref=e12]`, refs "e12".
//   - domscope's text format: `[12] button "Submit"`, refs "12" (or "[12]",
//     "node_12").
//
// A ref is resolved by the role and quoted name of its line, never by its
// number. The page the script runs on has other node numbers. When several
// lines of the file have the same role and name, the ref's place among
// them becomes "nth".
type Refs struct {
	// Source names the file in messages.
	Source string
	lines  map[string]refLine
	pw, ds []string // refs of each form, in file order, for messages
}

// refLine is one referenced line of the file.
type refLine struct {
	line       int    // 1-based line number
	text       string // the line, trimmed, for messages
	role, name string // as written
	named      bool
	ours       bool // domscope's text format (role words may be tags)
	nth        int  // its place among lines with the same role and name
	dup        bool
}

var (
	pwRefRe = regexp.MustCompile(`\[ref=([A-Za-z0-9_-]+)\]`)
	dsRefRe = regexp.MustCompile(`^\[(\d+)\] `)
)

// ParseRefs reads snapshot text. Lines with no ref are skipped. A file
// with none at all is an error.
func ParseRefs(r io.Reader, source string) (*Refs, error) {
	rs := &Refs{Source: source, lines: map[string]refLine{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxScriptLine)
	seen := map[string]int{} // role+name -> lines so far
	first := map[string]string{}
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		var ref, body string
		if m := dsRefRe.FindStringSubmatch(line); m != nil {
			ref, body = m[1], line[len(m[0]):]
			rs.ds = append(rs.ds, ref)
		} else if m := pwRefRe.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "- ") {
			ref, body = m[1], strings.TrimPrefix(line, "- ")
			rs.pw = append(rs.pw, ref)
		} else {
			continue
		}
		rl := refLine{line: n, text: dom.Clip(line, 120), ours: dsRefRe.MatchString(line)}
		rl.role, rl.name, rl.named = roleAndName(body)
		key := strings.ToLower(rl.role) + "\x00" + rl.name
		rl.nth = seen[key]
		seen[key]++
		if rl.nth == 1 {
			// The first line with this role and name is not alone either.
			f := rs.lines[first[key]]
			f.dup = true
			rs.lines[first[key]] = f
		}
		if rl.nth == 0 {
			first[key] = ref
		} else {
			rl.dup = true
		}
		rs.lines[ref] = rl
	}
	if err := sc.Err(); err != nil {
		return nil, dom.Errorf(dom.ValidationError, err, "reading %s", source)
	}
	if len(rs.lines) == 0 {
		return nil, dom.Errorf(dom.ValidationError, nil, "%s holds no node references: expected Playwright aria snapshot lines (`- button \"Submit\" [ref=e12]`) or domscope text lines (`[12] button \"Submit\"`)", source)
	}
	return rs, nil
}

// ReadRefsFile reads a snapshot text file for ParseRefs.
func ReadRefsFile(path string) (*Refs, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, dom.Errorf(dom.ValidationError, err, "no refs file at %s", path)
		}
		return nil, dom.Errorf(dom.ValidationError, err, "cannot open %s", path)
	}
	defer f.Close()
	return ParseRefs(f, filepath.Base(path))
}

// roleAndName reads the role word and the quoted name after it.
func roleAndName(body string) (role, name string, named bool) {
	end := strings.IndexAny(body, " :[")
	if end < 0 {
		end = len(body)
	}
	role = body[:end]
	rest := strings.TrimLeft(body[end:], " ")
	if !strings.HasPrefix(rest, `"`) {
		return role, "", false
	}
	// The closing quote is the first one not escaped by a backslash.
	for i := 1; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '"':
			if s, err := strconv.Unquote(rest[:i+1]); err == nil {
				return role, s, true
			}
			return role, rest[1:i], true
		}
	}
	return role, "", false
}

// roleAliases are the roles a role word of either text may stand for in
// a snapshot. domscope's text (ours) writes headings as h1..h6. It writes
// the tag where the role is generic, and Chrome's internal role names
// plainly. Playwright says img where Chrome says image.
func roleAliases(word string, ours bool) []string {
	w := strings.ToLower(word)
	if len(w) == 2 && w[0] == 'h' && w[1] >= '1' && w[1] <= '9' {
		return []string{"heading"}
	}
	switch w {
	case "img", "image":
		return []string{"image", "img"}
	case "summary":
		return []string{"DisclosureTriangle", "summary"}
	case "label":
		return []string{"LabelText", "label"}
	case "option":
		return []string{"option", "MenuListOption"}
	case "button":
		return []string{"button", "ToggleButton", "PopUpButton"}
	}
	if ours {
		return []string{word, "generic", "none"}
	}
	return []string{word}
}

// describe says which line a ref came from.
func (rs *Refs) describe(ref string, rl refLine) string {
	return fmt.Sprintf("ref %s (%s line %d: %s)", ref, rs.Source, rl.line, rl.text)
}

// lookup finds a ref's line, saying clearly when it is not there.
func (rs *Refs) lookup(ref string) (string, refLine, error) {
	r := strings.TrimPrefix(dom.NormalizeID(ref), "node_")
	ours := r != "" && strings.Trim(r, "0123456789") == ""
	if rl, ok := rs.lines[r]; ok {
		return r, rl, nil
	}
	var hint string
	switch {
	case !ours && len(rs.pw) == 0:
		hint = fmt.Sprintf("; it holds domscope refs (%s), not Playwright ones", span(rs.ds))
	case ours && len(rs.ds) == 0:
		hint = fmt.Sprintf("; it holds Playwright refs (%s): did you mean e%s?", span(rs.pw), r)
	case len(rs.pw)+len(rs.ds) > 0:
		hint = fmt.Sprintf("; it holds %s", span(append(append([]string{}, rs.pw...), rs.ds...)))
	}
	return r, refLine{}, dom.Errorf(dom.ValidationError, nil, "ref %q is not in %s%s", ref, rs.Source, hint)
}

func span(refs []string) string {
	switch len(refs) {
	case 0:
		return "none"
	case 1:
		return refs[0]
	}
	return fmt.Sprintf("%d refs, %s … %s", len(refs), refs[0], refs[len(refs)-1])
}

// resolveRef resolves a {"ref":…} target. It takes the ref's role (or a
// role its word stands for) and exact name, with nth when the file
// repeats them. Then the normal query resolution runs. While nothing
// matches it re-snapshots until limit, as other queries do.
func resolveRef(ctx context.Context, a dom.Actor, rs *Refs, ref string, limit time.Duration) (*dom.VirtualNode, error) {
	if rs == nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "target ref %q needs the snapshot text it came from: run with --refs FILE", ref)
	}
	r, rl, err := rs.lookup(ref)
	if err != nil {
		return nil, err
	}
	if rl.role == "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "%s has no role to resolve by", rs.describe(r, rl))
	}
	deadline := time.Now().Add(limit)
	for {
		snap, err := a.Snapshot(ctx, false)
		if err != nil {
			return nil, err
		}
		for _, role := range roleAliases(rl.role, rl.ours) {
			q := query.Query{Role: role, Name: rl.name}
			if !rl.named {
				q.Name = ""
			}
			if rl.dup || !rl.named {
				nth := rl.nth
				q.Nth = &nth
			}
			if len(query.FindNodes(snap, q)) == 0 {
				continue
			}
			n, err := Resolve(ctx, a, q)
			if err != nil {
				return nil, dom.Errorf(dom.CodeOf(err), err, "%s", rs.describe(r, rl))
			}
			return n, nil
		}
		if !time.Now().Before(deadline) {
			return nil, dom.Errorf(dom.NodeNotFound, nil, "%s matches nothing in the page: %s", rs.describe(r, rl), refMisses(snap, rl))
		}
		select {
		case <-time.After(150 * time.Millisecond):
		case <-ctx.Done():
			return nil, dom.Errorf(dom.Timeout, ctx.Err(), "resolving %s", rs.describe(r, rl))
		}
		if _, err := a.Snapshot(ctx, true); err != nil {
			return nil, err
		}
	}
}

// refMisses names what comes close to a ref's role and name. That is
// nodes with that name and another role. It is also nodes of that role
// whose names share a word with it.
func refMisses(snap *dom.Snapshot, rl refLine) string {
	what := fmt.Sprintf("no %s named %q", rl.role, rl.name)
	if !rl.named {
		what = fmt.Sprintf("no %s", rl.role)
	}
	var sameName, sameRole []*dom.VirtualNode
	if rl.named {
		for _, n := range query.FindNodes(snap, query.Query{NameContains: rl.name}) {
			if n.Visible {
				sameName = append(sameName, n)
			}
		}
	}
	words := strings.Fields(strings.ToLower(rl.name))
	var ofRole []*dom.VirtualNode
	for _, role := range roleAliases(rl.role, rl.ours) {
		for _, n := range query.FindNodes(snap, query.Query{Role: role}) {
			if !n.Visible {
				continue
			}
			ofRole = append(ofRole, n)
			name := strings.ToLower(n.Name)
			for _, w := range words {
				if len([]rune(w)) > 2 && strings.Contains(name, w) {
					sameRole = append(sameRole, n)
					break
				}
			}
		}
	}
	var parts []string
	if len(sameName) > 0 {
		parts = append(parts, "with that name: "+labels(sameName))
	}
	switch {
	case len(sameRole) > 0:
		parts = append(parts, fmt.Sprintf("%ss with a like name: %s", rl.role, labels(sameRole)))
	case len(ofRole) > 0:
		parts = append(parts, fmt.Sprintf("the %ss on the page: %s", rl.role, labels(ofRole)))
	}
	if len(parts) == 0 {
		return what + ", and nothing like it (the node is gone, or the file is from another page)"
	}
	return what + "; near misses: " + strings.Join(parts, "; ")
}

func labels(ns []*dom.VirtualNode) string {
	var parts []string
	for i, n := range ns {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("… %d more", len(ns)-6))
			break
		}
		parts = append(parts, dom.NodeLabel(n, 40))
	}
	return strings.Join(parts, ", ")
}
