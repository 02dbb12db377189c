package cdptest

import (
	"context"
	"testing"
	"time"
)

// Caller is what WaitFor needs of a page: a CDP call.
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
}

// WaitFor polls a JavaScript condition on the page until it is true. A
// call that fails (the page is between documents) is polled again. It
// fails the test after 2 min: a hang guard, not a timing assertion.
func WaitFor(t testing.TB, p Caller, cond string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		var r struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": cond, "returnByValue": true}, &r); err == nil && r.Result.Value {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s", cond)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
