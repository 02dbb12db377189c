package flatten

import "sync/atomic"

// work counts the derivations this package made, so a test can check
// that a client (the UI) shows what it was handed and derives nothing.
var work struct {
	flatten, diff, format, tokens atomic.Int64
}

// Work is how many times each derivation ran in this process.
type Work struct {
	Flatten, Diff, Format, Tokens int64
}

// WorkDone reads the counters (cheap: a few atomic loads).
func WorkDone() Work {
	return Work{work.flatten.Load(), work.diff.Load(), work.format.Load(), work.tokens.Load()}
}
