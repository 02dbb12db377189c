package live_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// benchAction measures one action end to end as a user feels it: resolve,
// act, settle (the DOM quiet window included), re-snapshot.
func benchAction(b *testing.B, url string, cfg Config, mk func(s *Snapshot) Action) {
	svc, _ := openService(b, url, cfg)
	var snapTime time.Duration
	n := 0
	for b.Loop() {
		if cfg.NoResnapshot {
			b.StopTimer() // the capture an action needs is not the action's cost
		}
		s := snap(b, svc)
		if cfg.NoResnapshot {
			b.StartTimer()
		}
		res := svc.Do(ctx(b), mk(s))
		if !res.Success {
			b.Fatalf("%s failed: %v", res.Action, res.Error)
		}
		if cur := svc.Current(); cur != nil {
			snapTime += cur.CaptureTime + cur.BuildTime
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	// (b.Elapsed excludes stopped time.)
	if n > 0 {
		b.ReportMetric(float64(snapTime.Microseconds())/1000/float64(n), "snapshot-ms/op")
	}
}

func smallPage(b *testing.B) string {
	base, _ := cdptest.Serve(b, actionPages)
	return base + "/basic.html"
}

func synthetic10k(b *testing.B) string {
	base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus", "synthetic"))
	return base + "/synthetic-10000.html"
}

// firstMatch returns the first element node for which f holds.
func firstMatch(b *testing.B, s *Snapshot, f func(n *VirtualNode) bool) string {
	var id string
	walk(s.Root, func(n *VirtualNode) bool {
		if id == "" && n.NodeType == ElementNode && f(n) {
			id = n.ID
		}
		return id == ""
	})
	if id == "" {
		b.Fatalf("no matching node in the snapshot")
	}
	return id
}

func clickTarget(small bool) func(n *VirtualNode) bool {
	if small {
		return func(n *VirtualNode) bool { return n.Attrs["id"] == "mod" }
	}
	return func(n *VirtualNode) bool { return n.Tag == "button" && n.Attrs["type"] == "button" }
}

func typeTarget(small bool) func(n *VirtualNode) bool {
	if small {
		return func(n *VirtualNode) bool { return n.Attrs["id"] == "keys" }
	}
	return func(n *VirtualNode) bool { return n.Tag == "input" && n.Attrs["name"] == "f4" }
}

func benchPages(b *testing.B, f func(b *testing.B, url string, small bool)) {
	b.Run("small", func(b *testing.B) { f(b, smallPage(b), true) })
	b.Run("synthetic-10000", func(b *testing.B) { f(b, synthetic10k(b), false) })
}

func BenchmarkClick(b *testing.B) {
	benchPages(b, func(b *testing.B, url string, small bool) {
		benchAction(b, url, Config{}, func(s *Snapshot) Action {
			return Action{Kind: "click", ID: firstMatch(b, s, clickTarget(small)), Force: !small}
		})
	})
}

func BenchmarkType(b *testing.B) {
	benchPages(b, func(b *testing.B, url string, small bool) {
		benchAction(b, url, Config{}, func(s *Snapshot) Action {
			return Action{Kind: "type", ID: firstMatch(b, s, typeTarget(small)), Text: "hello world"}
		})
	})
}

func BenchmarkKey(b *testing.B) {
	benchPages(b, func(b *testing.B, url string, small bool) {
		benchAction(b, url, Config{}, func(s *Snapshot) Action {
			return Action{Kind: "key", ID: firstMatch(b, s, typeTarget(small)), Key: "a"}
		})
	})
}

// BenchmarkClickNoResnapshot is the click alone (resolve, act, settle)
// without the re-snapshot, to tell the action's cost from the capture's.
func BenchmarkClickNoResnapshot(b *testing.B) {
	benchPages(b, func(b *testing.B, url string, small bool) {
		benchAction(b, url, Config{NoResnapshot: true}, func(s *Snapshot) Action {
			return Action{Kind: "click", ID: firstMatch(b, s, clickTarget(small)), Force: !small}
		})
	})
}

// BenchmarkResnapshot compares, in the same run, the snapshot after a
// small action taken incrementally with a full capture of the same page.
// The actions are a click on a button of synthetic-10000 and -50000, and
// typing into wikipedia-2's search field. On synthetic-10000 it also
// reports the click with its re-snapshot.
//
//	go test ./dom/live -run '^$' -bench BenchmarkResnapshot -benchtime 3x
func BenchmarkResnapshot(b *testing.B) {
	pages := []struct {
		name, dir, file string
		act             func(b *testing.B, s *Snapshot) Action
	}{
		{"synthetic-10000", "synthetic", "synthetic-10000.html", clickButton},
		{"wikipedia-2", filepath.Join("readability", "wikipedia-2"), "source.html", func(b *testing.B, s *Snapshot) Action {
			return Action{Kind: "type", ID: firstMatch(b, s, func(n *VirtualNode) bool { return n.Attrs["id"] == "searchInput" }), Text: "x"}
		}},
		{"synthetic-50000", "synthetic", "synthetic-50000.html", clickButton},
	}
	for _, pg := range pages {
		b.Run(pg.name, func(b *testing.B) {
			base, _ := cdptest.Serve(b, filepath.Join(cdptest.Shared(b), "corpus", pg.dir))
			svc, _ := openService(b, base+"/"+pg.file, Config{})
			var inc, full, act float64
			n := 0
			for b.Loop() {
				res := svc.Do(ctx(b), pg.act(b, snap(b, svc)))
				if !res.Success || res.Snapshot == nil {
					b.Fatalf("%s: %+v", res.Action, res)
				}
				if res.Snapshot.Kind != "incremental" {
					b.Fatalf("the snapshot after %s was %s (%s)", res.Action, res.Snapshot.Kind, svc.Fallback())
				}
				inc += res.Snapshot.Ms
				act += res.DurationMs
				f := svc.Do(ctx(b), Action{Kind: "snapshot", Full: true})
				if !f.Success || f.Snapshot == nil {
					b.Fatalf("full: %+v", f)
				}
				full += f.Snapshot.Ms
				n++
			}
			b.ReportMetric(inc/float64(n), "incremental-ms")
			b.ReportMetric(full/float64(n), "full-ms")
			b.ReportMetric(inc/full, "ratio")
			b.ReportMetric(act/float64(n), "action+resnapshot-ms")
		})
	}
}

func clickButton(b *testing.B, s *Snapshot) Action {
	return Action{Kind: "click", ID: firstMatch(b, s, clickTarget(false)), Force: true}
}

// BenchmarkFollow is follow mode's delay as a user sees it. Another CDP
// connection changes synthetic-10000 (one text node, from script). It
// times that change until the snapshot showing it is ready. That spans
// the service's quiet window, its page-changed event and the re-snapshot.
//
//	go test ./dom/live -run '^$' -bench BenchmarkFollow -benchtime 5x
func BenchmarkFollow(b *testing.B) {
	svc, p := openService(b, synthetic10k(b), Config{})
	op := otherClient(b, p.TargetID())
	snap(b, svc)
	var snapMs float64
	i := 0
	for b.Loop() {
		drain(svc)
		i++
		mark := "follow-" + strconv.Itoa(i)
		expr := "document.querySelector('h3').textContent = " + strconv.Quote(mark)
		if err := op.Call(ctx(b), "Runtime.evaluate", map[string]any{"expression": expr}, nil); err != nil {
			b.Fatal(err)
		}
		if !waitEvent(svc, "page-changed", 10*time.Second) {
			b.Fatal("no page-changed")
		}
		s, err := svc.Snapshot(ctx(b), true)
		if err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(nodeText(s.Root), mark) {
			b.Fatalf("the snapshot after page-changed lacks %q", mark)
		}
		snapMs += float64((s.CaptureTime + s.BuildTime).Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "change-to-snapshot-ms")
	b.ReportMetric(snapMs/float64(b.N), "snapshot-ms")
}

// BenchmarkHappenedCost weighs what an action reports beyond its diff
// (the witness, flashes, late effects, errors seen) at synthetic-10000.
// Each round does an action with that work off and on, in turn, on one
// page: the machine's load falls on both alike. It reports the medians,
// their ratio, and the median of each round's own ratio (on / off). The
// load of a shared machine swamps those; so it also reports the CPU time
// this process spent per action (getrusage: every goroutine's), on and
// off, and the difference as a share of the action's time off. For a click that changes one node (a .js-action sets
// an attribute) and a click that changes nothing.
//
//	go test ./dom/live -run '^$' -bench BenchmarkHappenedCost -benchtime 20x
func BenchmarkHappenedCost(b *testing.B) {
	for _, c := range []struct {
		name  string
		match func(n *VirtualNode) bool
	}{
		{"change", func(n *VirtualNode) bool { return n.Attrs["class"] == "js-action" }},
		{"noop", clickTarget(false)},
	} {
		b.Run(c.name, func(b *testing.B) {
			svc, _ := openService(b, synthetic10k(b), Config{})
			defer SetHappenedOff(false)
			var on, off, pairs, cpuOn, cpuOff []float64
			for b.Loop() {
				for _, skip := range []bool{len(on)%2 == 0, len(on)%2 != 0} {
					SetHappenedOff(skip)
					a := Action{Kind: "click", ID: firstMatch(b, snap(b, svc), c.match), Force: true}
					start, cpu := time.Now(), cpuMs()
					res := svc.Do(ctx(b), a)
					took := float64(time.Since(start).Microseconds()) / 1000
					used := cpuMs() - cpu
					if !res.Success {
						b.Fatalf("%s failed: %v", res.Action, res.Error)
					}
					if skip {
						off, cpuOff = append(off, took), append(cpuOff, used)
					} else {
						on, cpuOn = append(on, took), append(cpuOn, used)
					}
				}
				pairs = append(pairs, on[len(on)-1]/off[len(off)-1])
			}
			b.ReportMetric(median(on), "on-ms")
			b.ReportMetric(median(off), "off-ms")
			b.ReportMetric(median(on)/median(off), "ratio")
			b.ReportMetric(median(pairs), "round-ratio")
			b.ReportMetric(mean(cpuOn), "on-cpu-ms")
			b.ReportMetric(mean(cpuOff), "off-cpu-ms")
			b.ReportMetric((mean(cpuOn)-mean(cpuOff))/median(off), "added-share")
		})
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(max(1, len(xs)))
}

// cpuMs is the CPU time this process has used, user and system, in ms.
func cpuMs() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// BenchmarkClickQuietWindow: a click answered after today's quiet
// window (100 ms) and after 50 ms. What lands later goes to the next
// answer's `later`, so a short window loses nothing (happened.go).
func BenchmarkClickQuietWindow(b *testing.B) {
	for _, q := range []time.Duration{100 * time.Millisecond, 50 * time.Millisecond} {
		b.Run(q.String(), func(b *testing.B) {
			benchAction(b, smallPage(b), Config{QuietWindow: q}, func(s *Snapshot) Action {
				return Action{Kind: "click", ID: firstMatch(b, s, clickTarget(true))}
			})
		})
	}
}
