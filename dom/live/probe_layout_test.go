package live_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

const probeWalk = `(() => {
  const names = ["display","visibility","opacity","cursor","pointer-events"];
  const S = window.__dsShadow || (window.__dsShadow = new WeakMap());
  const withStyles = %STYLES%, withText = %TEXT%;
  let n = 0, changed = 0;
  const r = document.createRange();
  const walk = (root) => {
    const w = document.createTreeWalker(root, withText ? 5 : 1);
    for (let x = w.currentNode; x; x = w.nextNode()) {
      n++;
      let key;
      if (x.nodeType === 3) {
        r.selectNodeContents(x);
        const b = r.getBoundingClientRect();
        key = b.x + "," + b.y + "," + b.width + "," + b.height;
      } else if (x.nodeType === 1) {
        const b = x.getBoundingClientRect();
        key = b.x + "," + b.y + "," + b.width + "," + b.height;
        if (withStyles) { const cs = getComputedStyle(x); for (const k of names) key += "|" + cs.getPropertyValue(k); }
        if (x.shadowRoot) walk(x.shadowRoot);
      } else continue;
      if (S.get(x) !== key) { S.set(x, key); changed++; }
    }
  };
  walk(document.documentElement);
  return [n, changed];
})()`

func BenchmarkProbeLayout(b *testing.B) {
	pages := []struct{ name, dir, file string }{
		{"synthetic-10000", "synthetic", "synthetic-10000.html"},
		{"wikipedia-2", filepath.Join("readability", "wikipedia-2"), "source.html"},
		{"synthetic-50000", "synthetic", "synthetic-50000.html"},
	}
	for _, pg := range pages {
		b.Run(pg.name, func(b *testing.B) {
			base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus", pg.dir))
			_, p := openService(b, base+"/"+pg.file, Config{})
			timeIt := func(f func()) float64 {
				best := 1e9
				for range 3 {
					t := time.Now()
					f()
					best = min(best, float64(time.Since(t).Microseconds())/1000)
				}
				return best
			}
			for b.Loop() {
				cs := timeIt(func() {
					var raw json.RawMessage
					if err := p.Call(ctx(b), "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": LayoutStyles}, &raw); err != nil {
						b.Fatal(err)
					}
				})
				cs0 := timeIt(func() {
					var raw json.RawMessage
					if err := p.Call(ctx(b), "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}}, &raw); err != nil {
						b.Fatal(err)
					}
				})
				b.ReportMetric(cs, "captureSnapshot-ms")
				b.ReportMetric(cs0, "captureSnapshot-nostyles-ms")
				for _, v := range []struct{ name, styles, text string }{{"walk-rects-ms", "false", "false"}, {"walk-rects-text-ms", "false", "true"}, {"walk-all-ms", "true", "true"}} {
					expr := strings.NewReplacer("%STYLES%", v.styles, "%TEXT%", v.text).Replace(probeWalk)
					var r struct{ Result struct{ Value json.RawMessage } }
					ms := timeIt(func() {
						if err := p.Call(ctx(b), "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r); err != nil {
							b.Fatal(err)
						}
					})
					b.Logf("%s %s: %s", pg.name, v.name, r.Result.Value)
					b.ReportMetric(ms, v.name)
				}
			}
		})
	}
}
