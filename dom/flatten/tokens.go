package flatten

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// o200k is loaded on first use: building its tables takes a moment and
// most runs never count tokens.
var o200k = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.O200kBase)
})

// CountTokens counts o200k_base tokens of s (the GPT-4o family encoding,
// vocabulary embedded in the binary). If the codec cannot load it falls
// back to an estimate of one token per four bytes.
func CountTokens(s string) int {
	if s == "" {
		return 0
	}
	work.tokens.Add(1)
	c, err := o200k()
	if err == nil {
		if len(s) >= bigCount {
			defer capHeap()()
		}
		if n, err := c.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 3) / 4
}

// countTextChunks is CountTokens of a flat text view, counted by chunks
// (linetokens.go); those of prev are not counted again. It also returns
// each chunk's count, or nil when it fell back to an estimate.
func countTextChunks(s string, prev *chunkCounts) (int, []int32) {
	if s == "" {
		return 0, nil
	}
	work.tokens.Add(1)
	c, err := o200k()
	if err != nil {
		return (len(s) + 3) / 4, nil
	}
	if len(s) >= bigCount && prev == nil {
		defer capHeap()()
	}
	failed := false
	n, counts := countChunks(s, prev, func(chunk string) int {
		k, err := c.Count(chunk)
		if err != nil {
			failed = true
		}
		return k
	})
	if failed {
		return (len(s) + 3) / 4, nil
	}
	return n, counts
}

// Counting makes about 60 bytes of short-lived garbage per byte of text
// (the split regexp allocates a match per piece). That is 70 MB for the
// 1.2 MB flat view of synthetic-50000. Left to the GC's pace, the heap grows by
// that much above everything else live, and in the UI that was the peak
// of a page's load. So while a large text is counted the heap is capped a
// little above what is live, and the GC collects as it goes. The cap is
// debug.SetMemoryLimit; a lower limit already set, GOMEMLIMIT included,
// stays.
const (
	bigCount     = 256 << 10
	countHeadway = 48 << 20
)

// capMu makes concurrent counts of large texts take turns, so each
// restores the limit it found.
var capMu sync.Mutex

// capHeap caps the memory the Go runtime holds at what is in use now
// (live heap and the runtime's own) plus countHeadway. It returns the
// function that lifts the cap.
func capHeap() (lift func()) {
	capMu.Lock()
	old := debug.SetMemoryLimit(-1)
	if limit := inUse() + countHeadway; limit < old {
		debug.SetMemoryLimit(limit)
	}
	return func() {
		debug.SetMemoryLimit(old)
		capMu.Unlock()
	}
}

// inUse is the live heap at the last collection plus the memory the
// runtime holds besides the heap (stacks, metadata, buffers).
func inUse() int64 {
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/stacks:bytes"},
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	other := v(1) - v(2) - v(3) - v(4) - v(5) - v(6)
	return v(0) + max(other, 0) + v(6)
}
