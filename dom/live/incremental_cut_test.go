package live_test

import (
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// laggingPage delivers its ordered events a while after the browser sent
// them, in order, as a loaded process does: replies outrun them.
type laggingPage struct {
	*cdpconn.Page
	by time.Duration
}

func (l *laggingPage) SubscribeOrdered(methods ...string) (<-chan EventMessage, func()) {
	in, cancel := l.Page.SubscribeOrdered(methods...)
	out := make(chan EventMessage, 1024)
	go func() {
		defer close(out)
		for ev := range in {
			time.Sleep(time.Until(ev.At.Add(l.by)))
			out <- ev
		}
	}()
	return out, cancel
}

// TestIncrementalLateCut: a paragraph is inserted empty, then given its
// text. Chrome sends the text only as a new child count, so the model
// must ask for the paragraph's children. The events come after the
// refresh began; it must still fetch them, not build the paragraph
// empty (the race TestStillURLInText hit under load).
func TestIncrementalLateCut(t *testing.T) {
	u1, _ := cdptest.Serve(t, stillFrames)
	p := cdptest.Page(t, u1+"/boxes.html")
	late := &laggingPage{Page: p, by: 300 * time.Millisecond}
	svc := NewService(late, domtest.Loaded(Config{}))
	t.Cleanup(func() { _ = svc.Close() })
	sp := &stillPage{svc: svc, log: &callLog{Page: p}, tw: newTwin(t, svc, p)}
	sp.read(t, "loaded")
	sp.read(t, "refreshed")
	for i, text := range []string{"First added paragraph", "Second added paragraph"} {
		evalJS(t, sp.tw.page, `document.body.appendChild(document.createElement("p")).textContent = "`+text+`", true`)
		s, _ := sp.read(t, text)
		if !s.Incremental {
			t.Errorf("paragraph %d: a full capture (%s), want a refresh", i+1, svc.Fallback())
		}
	}
}
