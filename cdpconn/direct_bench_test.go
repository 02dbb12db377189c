package cdpconn_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// BenchmarkAttach compares a direct attach with chromedp's, alternated on
// the same tab. AttachDirect by id opens the tab's own socket
// (direct-ms). By its address it makes a new connection and lists and
// attaches the tab (direct-listed-ms). Connect and Attach do the same,
// and eleven more commands (chromedp-ms). Each is detached again. That
// is what a one-shot `domscope snapshot` pays before its first read.
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
			// The two direct ways go first in turn, chromedp's last. Its
			// detach leaves the renderer busy for a few ms, which the next
			// attach would pay: the loop waits that out, untimed.
			ways := []struct {
				took   time.Duration
				attach func() error
			}{
				{attach: func() error {
					d, err := cdpconn.AttachDirect(ctx, ws, false, p.TargetID())
					if err == nil {
						_ = d.Detach()
					}
					return err
				}},
				{attach: func() error {
					d, err := cdpconn.AttachDirect(ctx, ws, false, strings.TrimPrefix(base, "http://"))
					if err == nil {
						_ = d.Detach()
					}
					return err
				}},
				{attach: func() error {
					c, err := cdpconn.Connect(ctx, ws, false)
					if err != nil {
						return err
					}
					defer c.Close()
					_, err = c.Attach(ctx, p.TargetID())
					return err
				}},
			}
			i := 0
			for b.Loop() {
				for _, k := range []int{i % 2, 1 - i%2, 2} {
					w := &ways[k]
					t0 := time.Now()
					if err := w.attach(); err != nil {
						b.Fatal(err)
					}
					w.took += time.Since(t0)
				}
				i++
				time.Sleep(50 * time.Millisecond)
			}
			direct, listed, viaChromedp := ways[0].took, ways[1].took, ways[2].took
			n := float64(b.N)
			b.ReportMetric(float64(direct.Microseconds())/1000/n, "direct-ms")
			b.ReportMetric(float64(listed.Microseconds())/1000/n, "direct-listed-ms")
			b.ReportMetric(float64(viaChromedp.Microseconds())/1000/n, "chromedp-ms")
		})
	}
}
