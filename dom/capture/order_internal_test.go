package capture

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"domscope/dom"
)

// recorder is a Session that notes the order commands are sent in.
type recorder struct {
	mu   sync.Mutex
	sent []string
	fail map[string]bool // fail before sending
}

func (r *recorder) Call(ctx context.Context, method string, params, result any) error {
	r.mu.Lock()
	r.sent = append(r.sent, method)
	r.mu.Unlock()
	return nil
}

func (r *recorder) Subscribe(string) (<-chan json.RawMessage, func()) {
	ch := make(chan json.RawMessage)
	close(ch)
	return ch, func() {}
}

type sentRecorder struct{ recorder }

func (r *sentRecorder) CallSent(ctx context.Context, method string, params, result any, sent func()) error {
	if r.fail[method] {
		sent()
		return errors.New("refused")
	}
	err := r.Call(ctx, method, params, result)
	sent()
	time.Sleep(time.Millisecond) // the reply comes later
	return err
}

// TestSendOrder: the first calls of a capture leave in their turns, even
// when their goroutines start the other way round. A call that fails
// before it leaves does not hold up the next. A session that cannot tell
// when a command left is not held up at all.
func TestSendOrder(t *testing.T) {
	want := []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	run := func(s dom.Session) {
		o := newSendOrder(s, len(want))
		var wg sync.WaitGroup
		for i := len(want) - 1; i >= 0; i-- {
			wg.Go(func() {
				time.Sleep(time.Duration(len(want)-i) * time.Millisecond)
				_ = o.session(s, i).Call(ctx, want[i], nil, nil)
			})
		}
		wg.Wait()
	}
	r := &sentRecorder{}
	run(r)
	if len(r.sent) != len(want) {
		t.Fatalf("sent %v", r.sent)
	}
	for i := range want {
		if r.sent[i] != want[i] {
			t.Fatalf("sent in the order %v, want %v", r.sent, want)
		}
	}
	failing := &sentRecorder{recorder{fail: map[string]bool{"t2": true}}}
	run(failing)
	if len(failing.sent) != len(want)-1 || ctx.Err() != nil {
		t.Fatalf("with t2 refused: sent %v, ctx %v", failing.sent, ctx.Err())
	}
	plain := &recorder{}
	run(plain)
	if len(plain.sent) != len(want) || ctx.Err() != nil {
		t.Fatalf("a plain session: sent %v, ctx %v", plain.sent, ctx.Err())
	}
	// A session with two turns takes them in the order its calls come.
	// Later calls go at once.
	two := &sentRecorder{}
	o := newSendOrder(two, 2)
	s := o.session(two, 0, 1)
	for _, m := range []string{"a", "b", "c"} {
		if err := s.Call(ctx, m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(two.sent) != 3 {
		t.Fatalf("sent %v", two.sent)
	}
}
