package build_test

import (
	"context"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// Benchmarks of the pure part of a snapshot: Build (decode the raw CDP
// results, index, walk, classify), Flatten and FormatText. They run on a
// recording of synthetic-10000. They also run on synthetic-50000, captured
// once from real Chromium at the start. Without the shared corpus that
// one is skipped. Run them with:
//
//	go test ./dom -run '^$' -bench 'Build|Flatten|Snapshot' -benchmem

func BenchmarkBuild10k(b *testing.B)    { benchBuild(b, rec10k(b)) }
func BenchmarkFlatten10k(b *testing.B)  { benchFlatten(b, rec10k(b)) }
func BenchmarkSnapshot10k(b *testing.B) { benchAll(b, rec10k(b)) }
func BenchmarkBuild50k(b *testing.B)    { benchBuild(b, rec50k(b)) }
func BenchmarkFlatten50k(b *testing.B)  { benchFlatten(b, rec50k(b)) }
func BenchmarkSnapshot50k(b *testing.B) { benchAll(b, rec50k(b)) }

func rec10k(b *testing.B) *dom.RawCapture { return recordings.Load(b, "synthetic-10000") }

var (
	once50k sync.Once
	raw50k  *dom.RawCapture
)

// rec50k captures synthetic-50000 once per benchmark binary. It is too
// big to commit as a recording.
func rec50k(b *testing.B) *dom.RawCapture {
	once50k.Do(func() {
		dir := filepath.Join(cdptest.Shared(b), "corpus", "synthetic")
		u, _ := cdptest.Serve(b, dir)
		p := cdptest.Page(b, u+"/synthetic-50000.html")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		r, err := capture.Capture(ctx, p)
		if err != nil {
			b.Fatalf("capture: %v", err)
		}
		raw50k = r
	})
	if raw50k == nil {
		b.Skip("no capture of synthetic-50000")
	}
	return raw50k
}

func nodesOf(b *testing.B, raw *dom.RawCapture) int {
	s, err := build.Build(raw, build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return len(s.ByID)
}

// perNode reports wall time per node and the process CPU time per op
// (user+system, from getrusage). On a shared, loaded machine wall time
// counts the wait for a core; CPU time does not.
func perNode(b *testing.B, nodes int, cpu0 time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
	b.ReportMetric(float64(nodes), "nodes")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchBuild(b *testing.B, raw *dom.RawCapture) {
	nodes := nodesOf(b, raw)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := build.Build(raw, build.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	perNode(b, nodes, cpu0)
}

func benchFlatten(b *testing.B, raw *dom.RawCapture) {
	s, err := build.Build(raw, build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		flatten.Flatten(s, dom.DefaultOptions())
	}
	perNode(b, len(s.ByID), cpu0)
}

// benchAll is what a re-snapshot costs on top of the capture. That is a
// build with the previous snapshot (IDs kept), a flatten and the text.
func benchAll(b *testing.B, raw *dom.RawCapture) {
	prev, err := build.Build(raw, build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		s, err := build.Build(raw, build.Options{Prev: prev})
		if err != nil {
			b.Fatal(err)
		}
		sd, _ := flatten.Flatten(s, dom.DefaultOptions())
		_ = flatten.FormatText(sd)
	}
	perNode(b, len(prev.ByID), cpu0)
}

// BenchmarkRebuild* is the live model's build: the capture decoded once,
// each build with the one before as Prev (IDs and attribute maps kept).
//
//	go test ./dom/build -run '^$' -bench Rebuild -benchmem
func BenchmarkRebuild10k(b *testing.B) { benchRebuild(b, rec10k(b)) }
func BenchmarkRebuild50k(b *testing.B) { benchRebuild(b, rec50k(b)) }

func benchRebuild(b *testing.B, raw *dom.RawCapture) {
	c, err := cdpjson.Decode(raw, false)
	if err != nil {
		b.Fatal(err)
	}
	prev, err := build.FromDecoded(c, build.Options{}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		s, err := build.FromDecoded(c, build.Options{Prev: prev}, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		prev = s
	}
	perNode(b, len(prev.ByID), cpu0)
}
