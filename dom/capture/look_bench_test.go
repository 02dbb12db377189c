package capture_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	"domscope/dom/query"
)

// BenchmarkLookCost is what issue 33 adds to `domscope snapshot` of
// synthetic-10000. Two ways alternate on one tab and one session:
//   - before: main's capture (five layout styles, no look), flattened
//     and written as text.
//   - after: the capture with the overflow style, then query.ReadLook
//     (scroll facts and hit tests, one call), flattened with the marks.
//
// ratio is after over before from the sums; median-ratio the median of
// the per-round ratios.
//
//	go test ./dom/capture -run '^$' -bench BenchmarkLookCost -benchtime 20x
func BenchmarkLookCost(b *testing.B) {
	base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus", "synthetic"))
	p := cdptest.Page(b, base+"/synthetic-10000.html")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	d, err := cdpconn.AttachDirect(ctx, cdptest.Browser(b).WebSocketURL(), false, p.TargetID())
	if err != nil {
		b.Fatal(err)
	}
	defer d.Detach()
	styles := dom.LayoutStyles
	defer func() { dom.LayoutStyles = styles }()
	one := func(look bool) time.Duration {
		dom.LayoutStyles = styles
		if !look {
			dom.LayoutStyles = styles[:5] // main's
		}
		t0 := time.Now()
		s, err := capture.Take(ctx, d, build.Options{Lean: true})
		if err != nil {
			b.Fatal(err)
		}
		o := dom.DefaultOptions()
		if look {
			o.Covered = true
			if o.Look, err = query.ReadLook(ctx, d.Call, s, d.TargetID(), true); err != nil {
				b.Fatal(err)
			}
		}
		sd, _ := flatten.Flatten(s, o)
		_ = flatten.FormatText(sd)
		return time.Since(t0)
	}
	one(true) // Chrome sets up its DOM and AX agents once
	var before, after time.Duration
	var ratios []float64
	for b.Loop() {
		x := one(false)
		y := one(true)
		before, after = before+x, after+y
		ratios = append(ratios, float64(y)/float64(x))
	}
	slices.Sort(ratios)
	n := float64(b.N)
	b.ReportMetric(float64(before.Microseconds())/1000/n, "before-ms")
	b.ReportMetric(float64(after.Microseconds())/1000/n, "after-ms")
	b.ReportMetric(float64(after)/float64(before), "ratio")
	b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
}
