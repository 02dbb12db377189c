package capture_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
)

// covPage is one page of the coverage test.
type covPage struct {
	set  string // the page set it is reported under
	base string // which server: "corpus" or "pages"
	path string
}

// coveragePages lists the corpus and fixture pages. They are every
// TodoMVC app, every WAI-ARIA example, the smaller synthetic pages, a few
// readability pages and the testdata fixtures. synthetic-10000/50000 are
// for benchmarks. The oracle's getEventListeners on deep.html's 10,000
// elements takes minutes. So TestTenThousandDeep and the golden of its
// recording check it instead.
func coveragePages(t *testing.T, corpus string) []covPage {
	var out []covPage
	glob := func(set, pattern string) {
		m, err := filepath.Glob(filepath.Join(corpus, pattern))
		if err != nil || len(m) == 0 {
			t.Fatalf("no pages for %s in %s", pattern, corpus)
		}
		sort.Strings(m)
		for _, f := range m {
			rel, _ := filepath.Rel(corpus, f)
			out = append(out, covPage{set, "corpus", filepath.ToSlash(rel)})
		}
	}
	glob("todomvc", "todomvc/*/index.html")
	glob("todomvc", "todomvc/angular/browser/index.html")
	glob("aria-practices", "aria-practices/content/patterns/*/examples/*.html")
	glob("synthetic", "synthetic/synthetic-1000.html")
	glob("synthetic", "synthetic/synthetic-5000.html")
	for _, r := range []string{"ars-1", "theverge", "heise"} {
		glob("readability", "readability/"+r+"/source.html")
	}
	for _, p := range []string{"semantic.html", "nonsemantic.html", "hidden.html", "shadow.html",
		"frames.html?other={other}", "privacy.html", "hostile.html"} {
		out = append(out, covPage{"testdata", "pages", p})
	}
	return out
}

// TestCoverage runs the bench oracle in each page. The oracle marks every
// actionable element, by the definition of the engine issue, with
// data-oracle=N. Then the test captures, builds and flattens the page.
// Every marked element must be in the json output as itself. Inside a
// button/link atomic leaf, it may be that leaf. Recall must be 100% on
// every page set. The oracle cannot see controls inside closed shadow
// roots and cross-origin frames. Those are checked directly.
//
// make test takes the testdata pages and every other corpus page of each
// set (the first always); TestCoverageLong takes the rest.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage over the corpus is long; not with -short")
	}
	coverage(t, false)
}

// TestCoverageLong is the same over the corpus pages make test leaves:
// the two cover the corpus once.
func TestCoverageLong(t *testing.T) {
	cdptest.Long(t)
	coverage(t, true)
}

// coverageEvery is the share of each corpus set the quick run takes.
const coverageEvery = 2

func coverage(t *testing.T, rest bool) {
	shared := cdptest.Shared(t)
	corpus := filepath.Join(shared, "corpus")
	oracle, err := os.ReadFile(filepath.Join(shared, "bench", "oracle.js"))
	if err != nil {
		t.Fatal(err)
	}
	corpusURL, _ := cdptest.Serve(t, corpus)
	pagesURL, pagesOther := cdptest.Serve(t, capPagesDir)
	type tally struct{ pages, marked, found int }
	var mu sync.Mutex
	sets := map[string]*tally{}
	var misses []string
	pages := coveragePages(t, corpus)
	nth := map[string]int{}
	pages = slices.DeleteFunc(pages, func(p covPage) bool {
		if p.base == "pages" {
			return rest // the testdata pages: the quick run's
		}
		i := nth[p.set]
		nth[p.set]++
		return (i%coverageEvery == 0) == rest
	})
	// two tabs share the work: the renderer of each runs on its own core
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
				start := time.Now()
				snap, sd, d, err := tab.oracleSnapshot(url, string(oracle), strings.Contains(pg.path, "{other}"))
				if el := time.Since(start); el > 3*time.Second {
					t.Logf("%s took %v", pg.path, el.Round(time.Millisecond))
				}
				if err != nil {
					t.Errorf("%s: %v", pg.path, err)
					continue
				}
				kept := map[string]bool{}
				each(sd.Nodes, func(n *dom.SerializedNode) { kept[n.ID] = true })
				marked, found := 0, 0
				var miss []string
				for _, n := range snap.ByID {
					if _, ok := n.Attrs["data-oracle"]; !ok {
						continue
					}
					marked++
					dec := d.Get(n.ID)
					if kept[n.ID] || (dec.Rule == flatten.FlatAtomicLeaf && kept[dec.Into]) {
						found++
						continue
					}
					miss = append(miss, fmt.Sprintf("%s: %s <%s> %q tier=%v why=%s hidden=%q decision=%v:%s",
						pg.path, n.ID, n.Tag, n.Name, n.Tier, n.Why, n.Hidden, dec.Kind, dec.Rule))
				}
				if pg.base == "pages" {
					checkFixture(t, pg.path, snap, sd)
				}
				mu.Lock()
				ts := sets[pg.set]
				if ts == nil {
					ts = &tally{}
					sets[pg.set] = ts
				}
				ts.pages++
				ts.marked += marked
				ts.found += found
				misses = append(misses, miss...)
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
		t.Logf("recall %-15s %3d pages %5d/%5d actionable elements (%.1f%%)", k, ts.pages, ts.found, ts.marked, 100*float64(ts.found)/float64(max(ts.marked, 1)))
		if ts.marked == 0 {
			t.Errorf("%s: the oracle marked nothing", k)
		}
	}
	for _, m := range misses {
		t.Errorf("missing from the output: %s", m)
	}
}

// checkFixture asserts what the oracle cannot see: controls in closed
// shadow roots and in cross-origin (out-of-process) frames.
func checkFixture(t *testing.T, path string, s *dom.Snapshot, sd *dom.SerializedDom) {
	t.Helper()
	kept := map[string]*dom.SerializedNode{}
	each(sd.Nodes, func(n *dom.SerializedNode) { kept[n.ID] = n })
	has := func(name string, pred func(*dom.VirtualNode) bool) {
		t.Helper()
		for id := range kept {
			v := s.ByID[id]
			if v != nil && v.Name == name && pred(v) {
				return
			}
		}
		t.Errorf("%s: %q not in the output", path, name)
	}
	inClosedShadow := func(v *dom.VirtualNode) bool {
		for p := v.Parent; p != nil; p = p.Parent {
			if p.ShadowType == "closed" {
				return true
			}
		}
		return false
	}
	switch {
	case path == "shadow.html":
		has("Closed shadow button", inClosedShadow)
		has("Closed listener div", inClosedShadow)
	case strings.HasPrefix(path, "frames.html"):
		outOfProcess := func(v *dom.VirtualNode) bool { return v.TargetID != "" && v.TargetID != s.TargetID }
		has("Frame button", outOfProcess)
		has("Frame listener div", outOfProcess)
		oop := 0
		for _, f := range sd.Frames {
			if f.OutOfProcess {
				oop++
			}
		}
		if oop == 0 {
			t.Errorf("%s: no out-of-process frame in frames[]", path)
		}
	}
}

func each(l []*dom.SerializedNode, f func(*dom.SerializedNode)) {
	stack := append([]*dom.SerializedNode(nil), l...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f(n)
		stack = append(stack, n.Children...)
	}
}

// covTab is one reused tab of the shared browser.
type covTab struct {
	t *testing.T
	p dom.Page
}

func newCovTab(t *testing.T) *covTab {
	return &covTab{t: t, p: cdptest.Page(t, "about:blank")}
}

// oracleSnapshot loads url, marks the oracle's elements, captures and
// flattens. A page that kills its tab gets a fresh one and a second try.
func (c *covTab) oracleSnapshot(url, oracle string, frames bool) (*dom.Snapshot, *dom.SerializedDom, dom.Decisions, error) {
	for attempt := 0; ; attempt++ {
		s, sd, d, err := c.try(url, oracle, frames)
		if err == nil || attempt > 0 || dom.CodeOf(err) != dom.NotAttached {
			return s, sd, d, err
		}
		c.p = cdptest.Page(c.t, "about:blank")
	}
}

func (c *covTab) try(url, oracle string, frames bool) (*dom.Snapshot, *dom.SerializedDom, dom.Decisions, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := navigate(ctx, c.p, url); err != nil {
		return nil, nil, dom.Decisions{}, err
	}
	if frames {
		waitFrames(ctx, c.p, 1)
	}
	var res struct {
		Result struct {
			Value struct {
				Count int `json:"count"`
			} `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := c.p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": oracle, "includeCommandLineAPI": true, "returnByValue": true}, &res); err != nil {
		return nil, nil, dom.Decisions{}, err
	}
	if len(res.ExceptionDetails) > 0 {
		return nil, nil, dom.Decisions{}, fmt.Errorf("oracle threw: %s", res.ExceptionDetails)
	}
	var s *dom.Snapshot
	var err error
	if os.Getenv("DOMSCOPE_CAPTURE") == "page" { // the experimental page path
		if s, err = capture.TakePage(ctx, c.p, build.Options{}); err != nil {
			return nil, nil, dom.Decisions{}, err
		}
	} else {
		raw, err := capture.Capture(ctx, c.p)
		if err != nil {
			return nil, nil, dom.Decisions{}, err
		}
		if s, err = build.Build(raw, build.Options{}); err != nil {
			return nil, nil, dom.Decisions{}, err
		}
	}
	o := dom.DefaultOptions()
	o.IncludeBackendIDs = true
	sd, d := flatten.Flatten(s, o)
	return s, sd, d, nil
}

// navigate loads url in the tab and waits for its load event. It waits a
// moment more for single-page apps to render.
func navigate(ctx context.Context, p dom.Page, url string) error {
	if err := p.Call(ctx, "Page.enable", nil, nil); err != nil {
		return err
	}
	loaded, stop := p.Subscribe("Page.loadEventFired")
	defer stop()
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.Call(ctx, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		return err
	}
	if r.ErrorText != "" {
		return errors.New(r.ErrorText)
	}
	select {
	case <-loaded:
	case <-time.After(3 * time.Minute): // a hang guard: a loaded machine loads slowly
	case <-ctx.Done():
		return ctx.Err()
	}
	time.Sleep(150 * time.Millisecond)
	return nil
}

// waitFrames waits (bounded) until the page has n out-of-process frames.
func waitFrames(ctx context.Context, p dom.Page, n int) {
	deadline := time.Now().Add(3 * time.Minute) // a hang guard
	for time.Now().Before(deadline) {
		fs, err := p.Frames(ctx)
		if err == nil && len(fs) >= n {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
