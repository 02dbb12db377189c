package cdpconn_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// BenchmarkAttach compares a direct attach with chromedp's, alternated on
// the same tab. AttachDirect makes a new connection and lists and
// attaches the tab. Connect and Attach do the same, and eleven more
// commands. Each is detached again. That is what a one-shot `domscope
// snapshot` pays before its first read.
//
//	go test ./cdpconn -run '^$' -bench BenchmarkAttach -benchtime 10x
func BenchmarkAttach(b *testing.B) {
	for _, pg := range []struct{ name, dir, file string }{
		{"todomvc-react", filepath.Join("todomvc", "react"), "index.html"},
		{"wikipedia-2", filepath.Join("readability", "wikipedia-2"), "source.html"},
	} {
		b.Run(pg.name, func(b *testing.B) {
			base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus", pg.dir))
			p := cdptest.Page(b, base+"/"+pg.file)
			ws := cdptest.Browser(b).WebSocketURL()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			var direct, viaChromedp time.Duration
			for b.Loop() {
				t0 := time.Now()
				d, err := cdpconn.AttachDirect(ctx, ws, false, p.TargetID())
				if err != nil {
					b.Fatal(err)
				}
				_ = d.Detach()
				direct += time.Since(t0)
				t1 := time.Now()
				c, err := cdpconn.Connect(ctx, ws, false)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Attach(ctx, p.TargetID()); err != nil {
					b.Fatal(err)
				}
				_ = c.Close()
				viaChromedp += time.Since(t1)
			}
			n := float64(b.N)
			b.ReportMetric(float64(direct.Microseconds())/1000/n, "direct-ms")
			b.ReportMetric(float64(viaChromedp.Microseconds())/1000/n, "chromedp-ms")
		})
	}
}
