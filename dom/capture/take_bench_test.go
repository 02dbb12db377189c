package capture_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
)

// BenchmarkTake compares two ways of taking a lean snapshot. They
// alternate on the same tab and the same direct session. One is how
// `domscope snapshot` takes it: capture.Take decodes the page's parts as
// they arrive. The other is the whole capture first and then Build
// (capture.TakeWhole). Each is flattened and written as json.
//
//	go test ./dom/capture -run '^$' -bench BenchmarkTake -benchtime 5x
func BenchmarkTake(b *testing.B) {
	pages := []struct{ name, dir, file string }{
		{"todomvc-react", filepath.Join("todomvc", "react"), "index.html"},
		{"cnn", filepath.Join("readability", "cnn"), "source.html"},
		{"wikipedia-2", filepath.Join("readability", "wikipedia-2"), "source.html"},
		{"synthetic-10000", "synthetic", "synthetic-10000.html"},
	}
	for _, pg := range pages {
		b.Run(pg.name, func(b *testing.B) {
			base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus", pg.dir))
			p := cdptest.Page(b, base+"/"+pg.file)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			d, err := cdpconn.AttachDirect(ctx, cdptest.Browser(b).WebSocketURL(), false, p.TargetID())
			if err != nil {
				b.Fatal(err)
			}
			defer d.Detach()
			one := func(take func(context.Context, dom.Page, build.Options) (*dom.Snapshot, error)) time.Duration {
				t0 := time.Now()
				s, err := take(ctx, d, build.Options{Lean: true})
				if err != nil {
					b.Fatal(err)
				}
				o := dom.DefaultOptions()
				o.IncludeBackendIDs = true
				sd, _ := flatten.Flatten(s, o)
				if _, err := flatten.FormatJSON(sd); err != nil {
					b.Fatal(err)
				}
				return time.Since(t0)
			}
			one(capture.Take) // Chrome sets up its DOM and AX agents once
			var streamed, whole time.Duration
			for b.Loop() {
				whole += one(capture.TakeWhole)
				streamed += one(capture.Take)
			}
			n := float64(b.N)
			b.ReportMetric(float64(streamed.Microseconds())/1000/n, "streamed-ms")
			b.ReportMetric(float64(whole.Microseconds())/1000/n, "whole-ms")
			b.ReportMetric(float64(streamed)/float64(whole), "ratio")
		})
	}
}
