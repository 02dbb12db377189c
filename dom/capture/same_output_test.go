package capture_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
)

// TestFastCaptureSameOutput takes every testdata page and a quarter of
// the corpus both ways `domscope snapshot` can:
//   - the classic path, capture.TakeWhole. It attaches through chromedp
//     and sends its reads side by side in no set order. It fetches the
//     whole capture, then builds.
//   - the fast path, capture.Take. It attaches directly and sends its
//     first reads in turns. It decodes the page's parts as they arrive.
//
// The json (with backend ids), text and tree outputs must be the same. A
// page that changes by itself between two reads (carousels, clocks) is
// read again. One that never holds still is listed, not failed.
func TestFastCaptureSameOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("both capture paths over the corpus take minutes; not with -short")
	}
	sameOutput(t, false)
}

// TestFastCaptureSameOutputLong is the same over the rest of the
// corpus, synthetic-50000 included: the two cover it all once.
func TestFastCaptureSameOutputLong(t *testing.T) {
	cdptest.Long(t)
	sameOutput(t, true)
}

// everyNth is the share of each corpus group the quick run takes: every
// fourth page, the first of each group always among them.
const everyNth = 4

// sameOutput compares both paths. The quick part takes the testdata
// pages and every fourth page of each corpus group; the rest (long) the
// other corpus pages and synthetic-50000.
func sameOutput(t *testing.T, rest bool) {
	pagesURL, pagesOther := cdptest.Serve(t, capPagesDir)
	var urls []string
	fixtures, _ := filepath.Glob(filepath.Join(capPagesDir, "*.html"))
	if rest {
		fixtures = nil
	}
	sort.Strings(fixtures)
	for _, f := range fixtures {
		name := filepath.Base(f)
		switch name {
		case "deep.html":
			// 10,000 levels in chunks take minutes on a loaded machine. A
			// shallower chain takes the same chunked path.
			name += "?depth=400&wrap="
		case "frames.html", "frames-nested.html", "privacy-variants.html", "privacy-echo.html":
			name += "?other=" + pagesOther
		}
		urls = append(urls, pagesURL+"/"+name)
	}
	if os.Getenv("DOMSCOPE_SAME_FIXTURES_ONLY") == "" {
		corpus := filepath.Join(cdptest.Shared(t), "corpus")
		corpusURL, _ := cdptest.Serve(t, corpus)
		for _, pattern := range []string{"todomvc/*/index.html", "todomvc/angular/browser/index.html",
			"aria-practices/content/patterns/*/examples/*.html", "readability/*/source.html", "synthetic/synthetic-*.html"} {
			m, _ := filepath.Glob(filepath.Join(corpus, pattern))
			sort.Strings(m)
			for i, f := range m {
				quick := i%everyNth == 0 && !strings.HasSuffix(f, "synthetic-50000.html")
				if quick == rest {
					continue
				}
				rel, _ := filepath.Rel(corpus, f)
				urls = append(urls, corpusURL+"/"+filepath.ToSlash(rel))
			}
		}
	}
	var mu sync.Mutex
	var restless []string
	const tabs = 2
	var wg sync.WaitGroup
	for w := range tabs {
		tab := newCovTab(t)
		wg.Go(func() {
			for i := w; i < len(urls); i += tabs {
				u := urls[i]
				moving, err := sameBothWays(t, tab, u)
				if err != nil {
					t.Errorf("%s: %v", short(u), err)
				}
				if moving {
					mu.Lock()
					restless = append(restless, short(u))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d pages compared; changing by themselves between reads, not compared: %v", len(urls)-len(restless), restless)
}

func short(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[i+1:]
	}
	if i := strings.Index(u, "?other="); i >= 0 {
		u = u[:i]
	}
	return u
}

// sameBothWays loads u in the tab and compares the two paths' outputs:
// classic, fast, classic, up to three rounds. moving reports a page whose
// classic reads never agreed with each other.
func sameBothWays(t *testing.T, tab *covTab, u string) (moving bool, err error) {
	// A hang guard: up to three rounds of captures of 50,000 elements, on
	// a machine busy with another lane, took over 5 minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if err := navigate(ctx, tab.p, u); err != nil {
		return false, err
	}
	if strings.Contains(u, "other=") {
		waitFrames(ctx, tab.p, 1)
	}
	direct, err := cdpconn.AttachDirect(ctx, cdptest.Browser(t).WebSocketURL(), false, tab.p.TargetID())
	if err != nil {
		return false, err
	}
	defer func() { _ = direct.Detach() }()
	var firstDiff string
	for range 3 {
		a1, err := outputsOf(ctx, tab.p, capture.TakeWhole)
		if err != nil {
			return false, fmt.Errorf("classic: %w", err)
		}
		b, err := outputsOf(ctx, direct, capture.Take)
		if err != nil {
			return false, fmt.Errorf("fast: %w", err)
		}
		a2, err := outputsOf(ctx, tab.p, capture.TakeWhole)
		if err != nil {
			return false, fmt.Errorf("classic: %w", err)
		}
		if b == a1 || b == a2 {
			return false, nil
		}
		if a1 == a2 {
			return false, fmt.Errorf("the outputs differ:\n%s", domtest.FirstDiff(a1, b, 300))
		}
		if firstDiff == "" {
			firstDiff = domtest.FirstDiff(a1, a2, 300)
		}
	}
	t.Logf("%s changes by itself between reads:\n%s", short(u), firstDiff)
	return true, nil
}

var stamp = regexp.MustCompile(`"timestamp":\s*"[^"]*"`)

// outputsOf takes a lean snapshot as `domscope snapshot` does and returns
// its json (with backend ids), text and tree outputs.
func outputsOf(ctx context.Context, p dom.Page, take func(context.Context, dom.Page, build.Options) (*dom.Snapshot, error)) (string, error) {
	s, err := take(ctx, p, build.Options{Lean: true})
	if err != nil {
		return "", err
	}
	o := dom.DefaultOptions()
	sd, d := flatten.Flatten(s, o)
	text := flatten.FormatText(sd)
	o.IncludeBackendIDs = true
	sdj, _ := flatten.Flatten(s, o)
	j, err := flatten.FormatJSON(sdj)
	if err != nil {
		return "", err
	}
	return "== json\n" + stamp.ReplaceAllString(string(j), "") + "\n== text\n" + text + "\n== tree\n" + flatten.FormatTree(s, d), nil
}
