package dom

import "context"

// progressKey is the context key of a capture's progress callback.
type progressKey struct{}

// WithProgress returns a context whose captures (Capture, Take) tell f
// what they are doing. The phases are "listing frames", then "capturing
// DOM, accessibility, layout, listeners", then "building". The capturing
// phase names the parts still outstanding, shrinking as each arrives. f
// may be called from several goroutines and must not block. The engine
// knows nothing of who listens.
func WithProgress(ctx context.Context, f func(phase string)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, f)
}

// Progress returns the context's progress callback, or nil.
func Progress(ctx context.Context) func(phase string) {
	f, _ := ctx.Value(progressKey{}).(func(string))
	return f
}

// ReportPhase tells the context's progress callback, if any, the phase.
func ReportPhase(ctx context.Context, phase string) {
	if f := Progress(ctx); f != nil {
		f(phase)
	}
}
