package capture

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/build"
)

// PathDiff is where the CDP path and the page path built different nodes.
// It is the debugging view of `snapshot --capture compare`.
type PathDiff struct {
	Nodes    int            // nodes in both trees
	Only     [2]int         // nodes in one tree only: CDP, page
	Counts   map[string]int // by kind: role, name, tier, states, role-structural
	Examples map[string][]string
	Walk     PageWalkStats
}

// maxExamples bounds the examples kept per kind.
const maxExamples = 8

// ComparePaths takes the page twice, by CDP and by the page walker, and
// lists the nodes that differ. Both snapshots are returned.
func ComparePaths(ctx context.Context, p dom.Page, opts build.Options) (cdp, page *dom.Snapshot, d *PathDiff, err error) {
	cdp, err = Take(ctx, p, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	page, st, err := takePage(ctx, p, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	d = DiffPaths(cdp, page)
	d.Walk = *st
	return cdp, page, d, nil
}

type nodeKey struct {
	frame   string
	backend int64
}

// DiffPaths compares two snapshots of one page node by node, by frame and
// backend id.
func DiffPaths(a, b *dom.Snapshot) *PathDiff {
	d := &PathDiff{Counts: map[string]int{}, Examples: map[string][]string{}}
	index := func(s *dom.Snapshot) map[nodeKey]*dom.VirtualNode {
		m := map[nodeKey]*dom.VirtualNode{}
		dom.Walk(s.Root, func(n *dom.VirtualNode) { m[nodeKey{n.FrameID, n.BackendID}] = n })
		return m
	}
	ma, mb := index(a), index(b)
	keys := slices.SortedFunc(maps.Keys(ma), func(x, y nodeKey) int {
		if c := strings.Compare(x.frame, y.frame); c != 0 {
			return c
		}
		return int(x.backend - y.backend)
	})
	for _, k := range keys {
		x := ma[k]
		y, ok := mb[k]
		if !ok {
			d.Only[0]++
			continue
		}
		d.Nodes++
		add := func(kind, was, now string) {
			d.Counts[kind]++
			if len(d.Examples[kind]) < maxExamples {
				d.Examples[kind] = append(d.Examples[kind], fmt.Sprintf("%s %s: %s → %s", x.ID, describeTag(x), was, now))
			}
		}
		if x.Role != y.Role {
			// Chrome leaves many plain wrappers out of its tree. Their
			// role shows only in the tree view.
			if x.Tier == dom.Structural && y.Tier == dom.Structural {
				add("role-structural", x.Role, y.Role)
			} else {
				add("role", x.Role, y.Role)
			}
		}
		if x.Name != y.Name {
			add("name", quoteShort(x.Name), quoteShort(y.Name))
		}
		if x.Tier != y.Tier {
			add("tier", x.Tier.String()+" ("+x.Why+")", y.Tier.String()+" ("+y.Why+")")
		}
		if !maps.Equal(x.States, y.States) {
			add("states", statesText(x.States), statesText(y.States))
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			d.Only[1]++
		}
	}
	return d
}

// Text is the diff as lines: counts by kind, then examples.
func (d *PathDiff) Text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "nodes compared: %d (only CDP: %d, only page: %d)\n", d.Nodes, d.Only[0], d.Only[1])
	fmt.Fprintf(&sb, "page walker: %d frames walked, %d fell back to getFullAXTree, %d nodes not lined up; in page %v, line-up in Go %v\n",
		d.Walk.Walked, d.Walk.FellBack, d.Walk.Unmatched, d.Walk.Script.Round(time.Millisecond/10), d.Walk.LineUp.Round(time.Millisecond/10))
	for _, why := range d.Walk.Why {
		fmt.Fprintf(&sb, "  fell back: %s\n", why)
	}
	for _, kind := range []string{"role", "name", "tier", "states", "role-structural"} {
		fmt.Fprintf(&sb, "%s differs: %d\n", kind, d.Counts[kind])
		for _, e := range d.Examples[kind] {
			fmt.Fprintf(&sb, "  %s\n", e)
		}
	}
	return sb.String()
}

func describeTag(n *dom.VirtualNode) string {
	s := n.Tag
	if id := n.Attrs["id"]; id != "" {
		s += "#" + id
	}
	return s
}

func quoteShort(s string) string { return fmt.Sprintf("%q", dom.Clip(s, 60)) }

func statesText(m map[string]string) string {
	if len(m) == 0 {
		return "{}"
	}
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return "{" + strings.Join(parts, " ") + "}"
}
