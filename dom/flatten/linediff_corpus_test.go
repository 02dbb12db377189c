package flatten_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
)

// corpusView is the flattened text view of a corpus page, captured in the
// shared Chromium.
func corpusView(tb testing.TB, page string) string {
	tb.Helper()
	base, _ := cdptest.Serve(tb, filepath.Join(cdptest.Shared(tb), "corpus"))
	p := cdptest.Page(tb, base+"/"+page)
	snap, err := capture.Take(context.Background(), p, build.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	sd, _ := flatten.Flatten(snap, dom.DefaultOptions())
	return flatten.FormatText(sd)
}

// edited returns view with every step-th line changed (step 0: none). It
// also inserts a line near the top and removes one near the end, as a
// page whose header and footer change.
func edited(view string, step int) string {
	lines := strings.Split(strings.TrimSuffix(view, "\n"), "\n")
	for i := range lines {
		if step > 0 && i%step == step/2 {
			lines[i] += " (changed)"
		}
	}
	lines = append(lines[:3], append([]string{"[0] status \"Saved\""}, lines[3:]...)...)
	lines = append(lines[:len(lines)-3], lines[len(lines)-2:]...)
	return strings.Join(lines, "\n") + "\n"
}

// BenchmarkLineDiff diffs wikipedia-2's flat view (about 6,000 lines)
// against itself edited at the head and tail, with some lines changed in
// between. It also diffs it against another page's view. "lines" is the
// diff's length.
//
//	DOMSCOPE_SHARED=/work/shared go test ./dom -run '^$' -bench BenchmarkLineDiff -benchtime 20x
func BenchmarkLineDiff(b *testing.B) {
	wiki := corpusView(b, "readability/wikipedia-2/source.html")
	other := corpusView(b, "readability/nytimes-1/source.html")
	b.Logf("wikipedia-2: %d lines; nytimes-1: %d lines", strings.Count(wiki, "\n"), strings.Count(other, "\n"))
	for _, c := range []struct {
		name string
		next string
	}{
		{"head+tail", edited(wiki, 0)},
		{"every-500th", edited(wiki, 500)},
		{"every-50th", edited(wiki, 50)},
		{"other-page", other},
	} {
		b.Run(c.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				n = len(flatten.LineDiff(wiki, c.next))
			}
			b.ReportMetric(float64(n), "lines")
		})
	}
}

// TestLineDiffLargeView: wikipedia-2's flat view gets a change at its head
// and its tail and a few in between. They come out as those lines, not as
// the whole view removed and added.
func TestLineDiffLargeView(t *testing.T) {
	wiki := corpusView(t, "readability/wikipedia-2/source.html")
	n := strings.Count(wiki, "\n")
	if n < 5000 {
		t.Fatalf("wikipedia-2's view has %d lines; the test wants a large view", n)
	}
	next := edited(wiki, 1000)
	d := flatten.LineDiff(wiki, next)
	changed := 0
	for i := 0; i < n; i++ {
		if i%1000 == 500 {
			changed++
		}
	}
	// each changed line out and in, one line inserted, one removed
	if want := 2*changed + 2; len(d) != want {
		t.Fatalf("the diff has %d lines, want %d:\n%s", len(d), want, strings.Join(d[:min(len(d), 20)], "\n"))
	}
	if d[0] != `+ [0] status "Saved"` {
		t.Errorf("the diff starts %q", d[0])
	}
}

// BenchmarkLineDiffByID compares the diff by node an action's answer uses
// with the text diff, on synthetic-10000's flat view with every 500th
// line changed (and one line in, one out).
//
//	go test ./dom/flatten -run '^$' -bench BenchmarkLineDiffByID -benchtime 20x
func BenchmarkLineDiffByID(b *testing.B) {
	base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus"))
	p := cdptest.Page(b, base+"/synthetic/synthetic-10000.html")
	snap, err := capture.Take(context.Background(), p, build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	sd, _ := flatten.Flatten(snap, dom.DefaultOptions())
	a := flatten.FormatTextLines(sd)
	next := append([]flatten.Line(nil), a[:3]...)
	next = append(next, flatten.Line{ID: "node_0", Text: `[0] status "Saved"`})
	for i, l := range a[3 : len(a)-1] {
		if i%500 == 250 {
			l.Text += " (changed)"
		}
		next = append(next, l)
	}
	text := func(ls []flatten.Line) string {
		var sb strings.Builder
		for _, l := range ls {
			sb.WriteString(l.Text + "\n")
		}
		return sb.String()
	}
	at, nt := text(a), text(next)
	b.Logf("%d lines", len(a))
	b.Run("text", func(b *testing.B) {
		for b.Loop() {
			flatten.LineDiff(at, nt)
		}
	})
	b.Run("by-id", func(b *testing.B) {
		n := 0
		for b.Loop() {
			n = len(flatten.LineDiffByID(a, next))
		}
		b.ReportMetric(float64(n), "lines")
	})
}
