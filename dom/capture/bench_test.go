package capture_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/internal/domtest"
)

// BenchmarkCapture measures a whole capture.Capture of the synthetic corpus
// pages next to the floor of a DOM-first, AX-enriched snapshot. The floor
// is DOM.getDocument{depth:-1,pierce:true} + Accessibility.getFullAXTree
// alone, on the same page in the same run. Each iteration runs the floor
// and then the capture, so both see the same browser state. The metrics
// are:
//   - floor-ms and capture-ms.
//   - overhead-%: capture over floor, from the means.
//   - median-overhead-%: the median of the per-iteration ratios.
//   - on Linux, floor-cpu-ms, capture-cpu-ms and cpu-overhead-%. That is
//     the CPU time the browser's processes and the test spent on each. A
//     busy machine distorts it far less than wall-clock time.
//
// Run it with:
//
//	go test ./dom -run '^$' -bench BenchmarkCapture -benchtime 5x
func BenchmarkCapture(b *testing.B) {
	for _, name := range []string{"synthetic-10000", "synthetic-50000"} {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Join(cdptest.Shared(b), "corpus", "synthetic")
			u, _ := cdptest.Serve(b, dir)
			p := cdptest.Page(b, u+"/"+name+".html")
			ctx := context.Background()
			// One warm-up of each. Then the first iteration does not pay
			// for Chrome's lazy set-up of the DOM and AX agents.
			floor(b, ctx, p)
			if _, err := capture.Capture(ctx, p); err != nil {
				b.Fatal(err)
			}
			pid := 0
			if proc := cdptest.Browser(b).Process(); proc != nil {
				pid = proc.Pid
			}
			var floorCPU, captureCPU time.Duration
			var floorTotal, captureTotal time.Duration
			var ratios []float64
			var last *dom.RawCapture
			b.ResetTimer()
			for b.Loop() {
				c0, _ := domtest.BrowserCPUTime(pid)
				t0 := time.Now()
				floor(b, ctx, p)
				t1 := time.Now()
				c1, _ := domtest.BrowserCPUTime(pid)
				raw, err := capture.Capture(ctx, p)
				if err != nil {
					b.Fatal(err)
				}
				c2, _ := domtest.BrowserCPUTime(pid)
				floorCPU += c1 - c0
				captureCPU += c2 - c1
				f, c := t1.Sub(t0), time.Since(t1)
				floorTotal += f
				captureTotal += c
				ratios = append(ratios, float64(c)/float64(f))
				last = raw
			}
			n := float64(b.N)
			f := float64(floorTotal.Milliseconds()) / n
			c := float64(captureTotal.Milliseconds()) / n
			b.ReportMetric(f, "floor-ms")
			b.ReportMetric(c, "capture-ms")
			b.ReportMetric(100*(c-f)/f, "overhead-%")
			// The median of the per-iteration ratios resists a busy machine
			// better than the ratio of the means.
			slices.Sort(ratios)
			b.ReportMetric(100*(ratios[len(ratios)/2]-1), "median-overhead-%")
			// CPU time of the browser's processes and this one is the work
			// each way costs. A busy machine does not distort it.
			if _, ok := domtest.BrowserCPUTime(pid); ok && floorCPU > 0 {
				b.ReportMetric(float64(floorCPU.Milliseconds())/n, "floor-cpu-ms")
				b.ReportMetric(float64(captureCPU.Milliseconds())/n, "capture-cpu-ms")
				b.ReportMetric(100*(float64(captureCPU)-float64(floorCPU))/float64(floorCPU), "cpu-overhead-%")
			}
			for k, v := range last.Timings {
				b.ReportMetric(v, k+"-ms")
			}
		})
	}
}

// floor is DOM.getDocument + Accessibility.getFullAXTree alone. They are
// sent one after the other, each reply read in full.
func floor(b *testing.B, ctx context.Context, p dom.Page) {
	var doc, ax json.RawMessage
	if err := p.Call(ctx, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true}, &doc); err != nil {
		b.Fatal(err)
	}
	if err := p.Call(ctx, "Accessibility.getFullAXTree", map[string]any{}, &ax); err != nil {
		b.Fatal(err)
	}
}
