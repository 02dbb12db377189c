package live_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom/live"
)

type tracePage struct {
	*cdpconn.Page
	mu  sync.Mutex
	log []string
	t0  time.Time
}

func (p *tracePage) Call(ctx context.Context, method string, params, result any) error {
	s := time.Now()
	err := p.Page.Call(ctx, method, params, result)
	p.mu.Lock()
	p.log = append(p.log, fmt.Sprintf("%6.2f +%5.2f ms %s", float64(s.Sub(p.t0).Microseconds())/1000, float64(time.Since(s).Microseconds())/1000, method))
	p.mu.Unlock()
	return err
}

func TestZZTrace(t *testing.T) {
	p := cdptest.Page(t, os.Getenv("ZZURL"))
	time.Sleep(time.Second)
	tp := &tracePage{Page: p, t0: time.Now()}
	svc := NewService(tp, Config{FreshDocumentIDs: true})
	defer svc.Close()
	for i := 0; i < 6; i++ {
		time.Sleep(300 * time.Millisecond)
		tp.mu.Lock()
		tp.log = nil
		tp.t0 = time.Now()
		tp.mu.Unlock()
		s := time.Now()
		snap, err := svc.Snapshot(context.Background(), true)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(s)
		tp.mu.Lock()
		t.Logf("#%d %v incr=%v capture=%v build=%v fallback=%q calls=%d", i, d, snap.Incremental, snap.CaptureTime, snap.BuildTime, svc.Fallback(), len(tp.log))
		if i >= 4 {
			for _, l := range tp.log {
				t.Log(l)
			}
		}
		tp.mu.Unlock()
	}
	var r struct{ Result struct{ Value string } }
	p.Call(context.Background(), "Runtime.evaluate", map[string]any{"expression": `(() => { const G = window[Symbol.for("domscope.guard")]; const an = document.getAnimations().map(a => a.playState + ":" + (a.animationName || a.id || a.constructor.name) + ":" + (a.effect && a.effect.target && a.effect.target.outerHTML.slice(0,80))); const hits = []; const re = /:(defined|state|popover-open|modal|open|closed|fullscreen|playing|paused|picture-in-picture|volume-locked|muted|seeking|stalled|buffering)\b/; const scan = (rules) => { for (const r of rules) { if (r.cssRules && r.cssRules.length) scan(r.cssRules); if (r.selectorText && re.test(r.selectorText)) hits.push(r.selectorText); } }; let unread = 0; for (const sh of document.styleSheets) { try { scan(sh.cssRules); } catch (e) { unread++; hits.push("unreadable " + sh.href); } } return JSON.stringify({hits, ifr: document.querySelectorAll("iframe,frame").length, blind: G.blind, dirty: G.dirty, mo: !!G.mo, hover: G.hover && G.hover.length, focus: G.focus && G.focus.length, href: G.href == location.href, anims: an, docs: G.docs.length}); })()`, "returnByValue": true}, &r)
	t.Log(r.Result.Value)
}
