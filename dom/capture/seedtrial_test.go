package capture_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/flatten"
)

// The trial of seed 003 §3.7's atomic leaves and container pruning
// against today's flatten (issue 33). Each is applied to the flattened
// view of a real page; the oracle's recall and the text view's tokens
// are compared with today's. docs/performance.md ("Where to look") holds
// the figures and why neither became the default.

// seedAtomicRoles and seedAtomicTags are §3.7.1's atomic parents: below
// them the seed extracts nothing.
var (
	seedAtomicRoles = map[string]bool{"button": true, "link": true, "menuitem": true, "tab": true, "option": true,
		"treeitem": true, "checkbox": true, "radio": true, "switch": true, "slider": true, "spinbutton": true,
		"textbox": true, "searchbox": true, "combobox": true}
	seedAtomicTags = map[string]bool{"button": true, "a": true, "select": true}
	// seedLandmarks are §3.7.3's containers kept without a visual boundary.
	seedLandmarks = map[string]bool{"main": true, "navigation": true, "form": true, "region": true}
)

// markBoundaries marks (data-vb) every element §3.7.3 calls a meaningful
// container: a background colour, a border or a box shadow.
const markBoundaries = `(() => { const walk = (root) => { for (const el of root.querySelectorAll('*')) {
  const s = getComputedStyle(el);
  if (s.backgroundColor !== 'rgba(0, 0, 0, 0)' || parseFloat(s.borderTopWidth) + parseFloat(s.borderRightWidth) +
      parseFloat(s.borderBottomWidth) + parseFloat(s.borderLeftWidth) > 0 || s.boxShadow !== 'none') el.setAttribute('data-vb', '');
  if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); })();
`

// atomicSeed drops the descendants of every node §3.7.1 makes atomic.
func atomicSeed(sd *dom.SerializedDom) *dom.SerializedDom {
	var cp func([]*dom.SerializedNode) []*dom.SerializedNode
	cp = func(l []*dom.SerializedNode) []*dom.SerializedNode {
		var out []*dom.SerializedNode
		for _, n := range l {
			c := *n
			if seedAtomicRoles[n.Role] || seedAtomicTags[n.Tag] {
				c.Children = nil
			} else {
				c.Children = cp(n.Children)
			}
			out = append(out, &c)
		}
		return out
	}
	out := *sd
	out.Nodes = cp(sd.Nodes)
	return &out
}

// pruneContainers hoists (children up a level) every kept container
// (no name, nothing to act on) unless keep says otherwise.
func pruneContainers(s *dom.Snapshot, sd *dom.SerializedDom, keep func(v *dom.VirtualNode, n *dom.SerializedNode) bool) *dom.SerializedDom {
	var cp func([]*dom.SerializedNode, []*dom.SerializedNode) []*dom.SerializedNode
	cp = func(l, out []*dom.SerializedNode) []*dom.SerializedNode {
		for _, n := range l {
			v := s.ByID[n.ID]
			if n.Role != "text" && n.Role != "more" && n.Name == "" && len(n.Children) > 0 && flatten.Container(v) && !keep(v, n) {
				out = cp(n.Children, out)
				continue
			}
			c := *n
			c.Children = cp(n.Children, nil)
			out = append(out, &c)
		}
		return out
	}
	out := *sd
	out.Nodes = cp(sd.Nodes, nil)
	return &out
}

// TestSeedOptionsTrial: DOMSCOPE_TRIAL=1 go test -run TestSeedOptionsTrial -v ./dom/capture/
func TestSeedOptionsTrial(t *testing.T) {
	if os.Getenv("DOMSCOPE_TRIAL") == "" {
		t.Skip("a measurement over the corpus: DOMSCOPE_TRIAL=1 runs it")
	}
	shared := cdptest.Shared(t)
	corpus := filepath.Join(shared, "corpus")
	oracle, err := os.ReadFile(filepath.Join(shared, "bench", "oracle.js"))
	if err != nil {
		t.Fatal(err)
	}
	corpusURL, _ := cdptest.Serve(t, corpus)
	pagesURL, pagesOther := cdptest.Serve(t, capPagesDir)
	variants := []string{"today", "atomic", "prune-seed", "prune-all", "atomic+prune-seed", "shed-structural"}
	type tally struct {
		pages, marked int
		found, tokens map[string]int
	}
	var mu sync.Mutex
	sets := map[string]*tally{}
	var misses []string
	pages := coveragePages(t, corpus)
	const tabs = 2
	var wg sync.WaitGroup
	for w := 0; w < tabs; w++ {
		tab := newCovTab(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(pages); i += tabs {
				pg := pages[i]
				url := corpusURL + "/" + pg.path
				if pg.base == "pages" {
					url = pagesURL + "/" + strings.ReplaceAll(pg.path, "{other}", pagesOther)
				}
				snap, sd, d, err := tab.oracleSnapshot(url, markBoundaries+string(oracle), strings.Contains(pg.path, "{other}"))
				if err != nil {
					t.Errorf("%s: %v", pg.path, err)
					continue
				}
				seedKeep := func(v *dom.VirtualNode, n *dom.SerializedNode) bool {
					_, vb := v.Attrs["data-vb"]
					return vb || seedLandmarks[n.Role] || n.Tag == "form"
				}
				shed, _ := flatten.ShedStructural(snap, sd)
				views := map[string]*dom.SerializedDom{
					"shed-structural":   shed,
					"today":             sd,
					"atomic":            atomicSeed(sd),
					"prune-seed":        pruneContainers(snap, sd, seedKeep),
					"prune-all":         pruneContainers(snap, sd, func(*dom.VirtualNode, *dom.SerializedNode) bool { return false }),
					"atomic+prune-seed": pruneContainers(snap, atomicSeed(sd), seedKeep),
				}
				marked := 0
				found, tokens := map[string]int{}, map[string]int{}
				for _, name := range variants {
					v := views[name]
					tokens[name] = flatten.CountTokens(flatten.FormatText(v))
					kept := map[string]bool{}
					each(v.Nodes, func(n *dom.SerializedNode) { kept[n.ID] = true })
					m := 0
					for _, n := range snap.ByID {
						if _, ok := n.Attrs["data-oracle"]; !ok {
							continue
						}
						m++
						dec := d.Get(n.ID)
						if kept[n.ID] || (dec.Rule == flatten.FlatAtomicLeaf && kept[dec.Into]) {
							found[name]++
						} else if name == "atomic" {
							mu.Lock()
							misses = append(misses, fmt.Sprintf("%s: %s <%s role=%s> %q", pg.path, n.ID, n.Tag, n.Role, n.Name))
							mu.Unlock()
						}
					}
					marked = m
				}
				t.Logf("page %-75s %5d marked; tokens %v; found %v", pg.path, marked, tokens, found)
				mu.Lock()
				ts := sets[pg.set]
				if ts == nil {
					ts = &tally{found: map[string]int{}, tokens: map[string]int{}}
					sets[pg.set] = ts
				}
				ts.pages++
				ts.marked += marked
				for _, name := range variants {
					ts.found[name] += found[name]
					ts.tokens[name] += tokens[name]
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	names := make([]string, 0, len(sets))
	for k := range sets {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		ts := sets[k]
		for _, v := range variants {
			t.Logf("set %-15s %3d pages %-18s tokens %7d (%.3f of today) recall %5d/%5d (%.3f)", k, ts.pages, v,
				ts.tokens[v], float64(ts.tokens[v])/float64(max(ts.tokens["today"], 1)), ts.found[v], ts.marked, float64(ts.found[v])/float64(max(ts.marked, 1)))
		}
	}
	sort.Strings(misses)
	for i, m := range misses {
		if i < 40 {
			t.Logf("atomic misses %s", m)
		}
	}
	t.Logf("atomic misses: %d", len(misses))
}
