package live

import (
	"context"
	"testing"
	"time"
)

// A snapshot gets four calls' worth of time, or more when the caller's
// deadline gives more: `snapshot --timeout 3m` of a huge page on a
// loaded machine must not stop at 40 s.
func TestSnapshotBound(t *testing.T) {
	s := &Service{cfg: Config{CallTimeout: time.Second}}
	if got := s.snapshotBound(context.Background()); got != 4*time.Second {
		t.Errorf("no deadline: bound %s, want 4s", got)
	}
	short, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if got := s.snapshotBound(short); got > 2*time.Second || got < time.Second {
		t.Errorf("a 2s deadline: bound %s, want about 2s (the deadline comes first)", got)
	}
	long, cancel2 := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel2()
	if got := s.snapshotBound(long); got < 2*time.Minute {
		t.Errorf("a 3m deadline: bound %s, want about 3m", got)
	}
}
