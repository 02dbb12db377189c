package tabs_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/tabs"
)

// fakePage is an attached tab: closing done is the tab going.
type fakePage struct {
	id   string
	done chan struct{}
}

func (p *fakePage) Call(context.Context, string, any, any) error { return nil }
func (p *fakePage) Subscribe(string) (<-chan json.RawMessage, func()) {
	return make(chan json.RawMessage), func() {}
}
func (p *fakePage) TargetID() string                                  { return p.id }
func (p *fakePage) Frames(context.Context) ([]dom.FrameTarget, error) { return nil, nil }
func (p *fakePage) Done() <-chan struct{}                             { return p.done }
func (p *fakePage) Detach() error                                     { return nil }

// fakeBrowser attaches its tabs after gate opens (nil: at once); a tab
// named "dead" will not attach.
type fakeBrowser struct {
	mu       sync.Mutex
	tabs     []dom.TargetInfo
	pages    map[string]*fakePage
	gate     chan struct{}
	attaches atomic.Int32
}

func newBrowser() *fakeBrowser {
	return &fakeBrowser{pages: map[string]*fakePage{}, tabs: []dom.TargetInfo{
		{ID: "AAA", Type: "page", URL: "https://a.test/", Title: "A"},
		{ID: "BBB", Type: "page", URL: "https://b.test/cart", Title: "B"},
		{ID: "dead", Type: "page", URL: "https://c.test/", Title: "C"},
	}}
}

func (b *fakeBrowser) Targets(context.Context) ([]dom.TargetInfo, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]dom.TargetInfo(nil), b.tabs...), nil
}

func (b *fakeBrowser) Attach(ctx context.Context, id string) (dom.Page, error) {
	b.attaches.Add(1)
	if b.gate != nil {
		select {
		case <-b.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if id == "dead" {
		return nil, dom.Errorf(dom.AttachFailed, nil, "fake: cannot attach %s", id)
	}
	return b.page(id), nil
}

func (b *fakeBrowser) page(id string) *fakePage {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := &fakePage{id: id, done: make(chan struct{})}
	b.pages[id] = p
	return p
}

func (b *fakeBrowser) NewPage(_ context.Context, url string) (dom.Page, error) {
	b.mu.Lock()
	id := "NEW" + string(rune('0'+len(b.tabs)))
	b.tabs = append(b.tabs, dom.TargetInfo{ID: id, Type: "page", URL: url})
	b.mu.Unlock()
	return b.page(id), nil
}

func (b *fakeBrowser) Close() error { return nil }

// fakeService counts its closes.
type fakeService struct {
	page   dom.Page
	closed atomic.Int32
}

func (s *fakeService) State() dom.ConnState {
	if s.closed.Load() > 0 {
		return dom.Disconnected
	}
	return dom.Connected
}
func (s *fakeService) Close() error { s.closed.Add(1); return nil }

func newPool(b dom.Browser) *tabs.Pool[*fakeService] {
	return tabs.New(b, func(p dom.Page) *fakeService { return &fakeService{page: p} })
}

func bounded(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	t.Cleanup(cancel)
	return ctx
}

// waitFor waits, with a generous bound, until ok holds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// TestPoolAttachOnce: callers that ask for one tab at once share one
// attach and one service.
func TestPoolAttachOnce(t *testing.T) {
	b := newBrowser()
	b.gate = make(chan struct{})
	pool := newPool(b)
	defer pool.Close()
	ctx := bounded(t)
	const n = 16
	got := make([]*tabs.Entry[*fakeService], n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			spec := []string{"AAA", "0", "a.test", "https://a"}[i%4]
			e, err := pool.Get(ctx, spec, nil)
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = e
		})
	}
	waitFor(t, "an attach began", func() bool { return b.attaches.Load() > 0 })
	close(b.gate)
	wg.Wait()
	if a := b.attaches.Load(); a != 1 {
		t.Errorf("%d attaches for one tab, want 1", a)
	}
	for _, e := range got {
		if e == nil || e != got[0] || e.Service() != got[0].Service() {
			t.Fatalf("the callers got different entries: %v", got)
		}
	}
	if e := got[0]; e.ID != "AAA" || e.Page().TargetID() != "AAA" || !e.Alive() {
		t.Errorf("entry %s, page %s, alive %v", e.ID, e.Page().TargetID(), e.Alive())
	}
	if l := pool.List(); len(l) != 1 || l[0] != got[0] {
		t.Errorf("List: %v", l)
	}
}

// TestPoolBadInput: unknown and dead tabs, and a closed pool, are clear
// errors, and a dead tab is tried again on the next ask.
func TestPoolBadInput(t *testing.T) {
	b := newBrowser()
	pool := newPool(b)
	ctx := bounded(t)
	for _, tc := range []struct {
		spec string
		code dom.Code
	}{
		{"nothing", dom.TargetNotFound},
		{"9", dom.TargetNotFound},
		{"test", dom.TargetNotFound}, // several tabs
		{"dead", dom.AttachFailed},
		{"dead", dom.AttachFailed},
	} {
		if _, err := pool.Get(ctx, tc.spec, nil); dom.CodeOf(err) != tc.code {
			t.Errorf("Get(%q): %v, want %s", tc.spec, err, tc.code)
		}
	}
	if a := b.attaches.Load(); a != 2 {
		t.Errorf("%d attaches of the dead tab, want 2 (a failed attach is not kept)", a)
	}
	if pool.Len() != 0 {
		t.Errorf("the pool kept %d tabs that did not attach", pool.Len())
	}
	pool.Close()
	if _, err := pool.Get(ctx, "AAA", nil); dom.CodeOf(err) != dom.NotAttached {
		t.Errorf("Get after Close: %v", err)
	}
	if _, err := pool.Open(ctx, "about:blank", nil); dom.CodeOf(err) != dom.NotAttached {
		t.Errorf("Open after Close: %v", err)
	}
	pool.Close() // twice is no error
	nob := newPool(nil)
	defer nob.Close()
	if _, err := nob.Get(ctx, "AAA", nil); dom.CodeOf(err) != dom.NotAttached {
		t.Errorf("Get with no browser: %v", err)
	}
	late := tabs.New[*fakeService](b, nil)
	defer late.Close()
	if _, err := late.Get(ctx, "AAA", nil); dom.CodeOf(err) != dom.ValidationError {
		t.Errorf("Get with no service maker: %v", err)
	}
}

// TestPoolWaitBounded: a caller's context bounds its wait for a slow
// attach; the attach goes on for the next caller.
func TestPoolWaitBounded(t *testing.T) {
	b := newBrowser()
	b.gate = make(chan struct{})
	pool := newPool(b)
	defer pool.Close()
	short, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pool.Get(short, "AAA", nil); dom.CodeOf(err) != dom.Timeout {
		t.Errorf("Get past its context: %v", err)
	}
	close(b.gate)
	if _, err := pool.Get(bounded(t), "AAA", nil); err != nil {
		t.Fatal(err)
	}
	if a := b.attaches.Load(); a != 1 {
		t.Errorf("%d attaches, want 1", a)
	}
}

// TestPoolTabCloses: a tab that goes is dropped and its service closed;
// the next ask attaches it afresh.
func TestPoolTabCloses(t *testing.T) {
	b := newBrowser()
	pool := newPool(b)
	defer pool.Close()
	ctx := bounded(t)
	e, err := pool.Get(ctx, "BBB", nil)
	if err != nil {
		t.Fatal(err)
	}
	close(b.pages["BBB"].done)
	waitFor(t, "the closed tab was dropped", func() bool { return pool.Len() == 0 })
	if c := e.Service().closed.Load(); c != 1 {
		t.Errorf("the closed tab's service closed %d times, want 1", c)
	}
	if e.Alive() {
		t.Error("a closed tab is alive")
	}
	again, err := pool.Get(ctx, "BBB", nil)
	if err != nil || again == e {
		t.Fatalf("after the tab closed: %v, same entry %v", err, again == e)
	}
}

// TestPoolDeadService: a tab whose service disconnected is dropped when
// looked up, not handed out.
func TestPoolDeadService(t *testing.T) {
	pool := newPool(newBrowser())
	defer pool.Close()
	e, err := pool.Get(bounded(t), "AAA", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = e.Service().Close()
	if pool.Served("AAA") != nil {
		t.Error("Served handed out a disconnected tab")
	}
	if pool.Len() != 0 {
		t.Error("the disconnected tab was kept")
	}
}

// TestPoolOpenAdoptClose: Open and Adopt put tabs in the pool in order;
// Close closes the services the pool owns, not the ones adopted.
func TestPoolOpenAdoptClose(t *testing.T) {
	b := newBrowser()
	pool := newPool(b)
	ctx := bounded(t)
	mine := &fakeService{}
	adopted, err := pool.Adopt(b.page("AAA"), mine, false)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := pool.Open(ctx, "https://d.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pool.Get(ctx, "AAA", nil)
	if err != nil || got != adopted || b.attaches.Load() != 0 {
		t.Fatalf("Get of an adopted tab: %v, attaches %d", err, b.attaches.Load())
	}
	if l := pool.List(); len(l) != 2 || l[0] != adopted || l[1] != opened {
		t.Errorf("List is not in order: %v", l)
	}
	// Adopting another service of a tab closes the pool's own.
	theirs := &fakeService{}
	if _, err := pool.Adopt(opened.Page(), theirs, false); err != nil {
		t.Fatal(err)
	}
	if c := opened.Service().closed.Load(); c != 1 {
		t.Errorf("the replaced service closed %d times, want 1", c)
	}
	pool.Close()
	if mine.closed.Load() != 0 || theirs.closed.Load() != 0 {
		t.Error("Close closed services the pool does not own")
	}
	if pool.Len() != 0 {
		t.Error("Close kept tabs")
	}
}

// TestPoolCloseDuringAttach: a pool closed while a tab attaches fails
// its callers and closes the service the attach made.
func TestPoolCloseDuringAttach(t *testing.T) {
	b := newBrowser()
	b.gate = make(chan struct{})
	var made atomic.Pointer[fakeService]
	pool := tabs.New(b, func(p dom.Page) *fakeService {
		s := &fakeService{page: p}
		made.Store(s)
		return s
	})
	ctx := bounded(t)
	e, err := pool.Claim(dom.TargetInfo{ID: "AAA"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the attach began", func() bool { return b.attaches.Load() == 1 })
	pool.Close()
	close(b.gate)
	if err := e.Wait(ctx); dom.CodeOf(err) != dom.NotAttached {
		t.Errorf("an attach the pool's Close cut: %v", err)
	}
	if s := made.Load(); s != nil && s.closed.Load() != 1 {
		t.Error("the service of an attach after Close was not closed")
	}
}

// TestPoolPanicInAttach: a bug while a tab attaches fails its callers
// with an error, not the program.
func TestPoolPanicInAttach(t *testing.T) {
	pool := tabs.New(newBrowser(), func(dom.Page) *fakeService { panic("boom") })
	defer pool.Close()
	_, err := pool.Get(bounded(t), "AAA", nil)
	if err == nil || dom.CodeOf(err) != dom.CDPError {
		t.Errorf("a panic in attach: %v", err)
	}
	if pool.Len() != 0 {
		t.Error("a tab whose attach panicked was kept")
	}
}

// TestPoolKeepClosed: with KeepClosed a tab whose page went stays, its
// service open, for the caller to drop.
func TestPoolKeepClosed(t *testing.T) {
	b := newBrowser()
	pool := newPool(b)
	pool.KeepClosed = true
	defer pool.Close()
	e, err := pool.Get(bounded(t), "AAA", nil)
	if err != nil {
		t.Fatal(err)
	}
	close(b.pages["AAA"].done)
	if pool.Served("AAA") != e || !e.Alive() || e.Service().closed.Load() != 0 {
		t.Error("KeepClosed dropped a tab whose page went")
	}
	pool.Drop(e)
	pool.Drop(e)
	if c := e.Service().closed.Load(); c != 1 {
		t.Errorf("Drop twice closed the service %d times, want 1", c)
	}
}

// TestPoolAdoptDuringAttach: a service adopted while the pool attaches
// the same tab wins; the attach's own service is closed, its callers
// told to ask again.
func TestPoolAdoptDuringAttach(t *testing.T) {
	b := newBrowser()
	b.gate = make(chan struct{})
	var made atomic.Pointer[fakeService]
	pool := tabs.New(b, func(p dom.Page) *fakeService {
		s := &fakeService{page: p}
		made.Store(s)
		return s
	})
	defer pool.Close()
	ctx := bounded(t)
	e, err := pool.Claim(dom.TargetInfo{ID: "AAA"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	theirs := &fakeService{}
	adopted, err := pool.Adopt(b.page("AAA"), theirs, false)
	if err != nil {
		t.Fatal(err)
	}
	close(b.gate)
	if err := e.Wait(ctx); dom.CodeOf(err) != dom.NotAttached {
		t.Errorf("the replaced attach: %v", err)
	}
	if s := made.Load(); s == nil || s.closed.Load() != 1 {
		t.Error("the replaced attach's service was not closed")
	}
	if got := pool.Served("AAA"); got != adopted || theirs.closed.Load() != 0 {
		t.Error("the adopted service did not stay")
	}
}
