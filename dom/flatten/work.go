package flatten

import "sync/atomic"

// Derivations counts what this package made, so a test can check that a
// client (the UI) shows what it was handed and derives nothing itself.
var Derivations struct {
	Flatten, Diff, Format, Tokens atomic.Int64
}

// work is the short name the package counts with.
var work = struct {
	flatten, diff, format, tokens *atomic.Int64
}{&Derivations.Flatten, &Derivations.Diff, &Derivations.Format, &Derivations.Tokens}
