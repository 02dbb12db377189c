package flatten

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// largeText is a flat view of n lines, like a big page's.
func largeText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[%d] button \"Save order %d\" href=/p/%d\n  text: alpha beta gamma délta 東京 %d\n", i, i, i*7, i%13)
	}
	return b.String()
}

// A large text counts the same with the heap capped. Every count,
// concurrent ones too, leaves the memory limit it found (a lower one
// set by the user included).
func TestCountTokensCapsAndRestoresTheLimit(t *testing.T) {
	text := largeText(6000) // about 0.5 MB: over bigCount
	if len(text) < bigCount {
		t.Fatalf("text of %d bytes does not reach bigCount", len(text))
	}
	c, err := o200k()
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Count(text)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, before := range []int64{1 << 40, inUse() + 16<<20} {
		debug.SetMemoryLimit(before)
		var wg sync.WaitGroup
		got := make([]int, 4)
		for i := range got {
			wg.Go(func() { got[i] = CountTokens(text) })
		}
		wg.Wait()
		for i, n := range got {
			if n != want {
				t.Errorf("limit %d: count %d = %d, want %d", before, i, n, want)
			}
		}
		if after := debug.SetMemoryLimit(-1); after != before {
			t.Errorf("the memory limit was %d before counting and %d after", before, after)
		}
	}
}

// The cap's cost: counting a large text with 100 MB of other live heap,
// capped (CountTokens) and as the GC paces it alone (the codec).
//
//	go test ./dom -run '^$' -bench BenchmarkCountTokensLarge -benchtime 5x
func BenchmarkCountTokensLarge(b *testing.B) {
	text := largeText(16000) // about 1.3 MB, like synthetic-50000's flat view
	ballast := make([][]byte, 0, 100<<10)
	for range 100 << 10 {
		ballast = append(ballast, make([]byte, 1<<10))
	}
	c, err := o200k()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		count func() int
	}{
		{"capped", func() int { return CountTokens(text) }},
		{"gc-paced", func() int { n, _ := c.Count(text); return n }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			runtime.GC()
			var peak uint64
			for b.Loop() {
				if bc.count() == 0 {
					b.Fatal("no tokens")
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapSys-ms.HeapReleased)
			}
			b.ReportMetric(float64(peak)/(1<<20), "heap-MB")
		})
	}
	runtime.KeepAlive(ballast)
}
