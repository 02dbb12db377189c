package live

import (
	"context"
	"sync"

	"domscope/dom"
)

// metricNames are the Performance.getMetrics values an action's delta
// reports (seed 000 §18.5).
var metricNames = []string{"Nodes", "JSHeapUsedSize", "LayoutCount", "RecalcStyleCount"}

// perfOn is set once the Performance domain is on for a page.
var perfOn sync.Map // dom.Page → true

// metrics reads the page's performance counters (nil when it cannot).
func (s *Service) perfMetrics(ctx context.Context, page dom.Page) map[string]float64 {
	if _, ok := perfOn.Load(page); !ok {
		if s.call(ctx, page, "Performance.enable", nil, nil) != nil {
			return nil
		}
		perfOn.Store(page, true)
	}
	var r struct {
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
	}
	if s.call(ctx, page, "Performance.getMetrics", nil, &r) != nil {
		return nil
	}
	out := map[string]float64{}
	for _, m := range r.Metrics {
		out[m.Name] = m.Value
	}
	return out
}

// metricsDelta is what changed between two readings.
func metricsDelta(before, after map[string]float64) *dom.Metrics {
	if before == nil || after == nil {
		return nil
	}
	return &dom.Metrics{
		Nodes:        int(after["Nodes"] - before["Nodes"]),
		JSHeapBytes:  int64(after["JSHeapUsedSize"] - before["JSHeapUsedSize"]),
		Layouts:      int(after["LayoutCount"] - before["LayoutCount"]),
		StyleRecalcs: int(after["RecalcStyleCount"] - before["RecalcStyleCount"]),
		NodesAfter:   int(after["Nodes"]),
		JSHeapAfter:  int64(after["JSHeapUsedSize"]),
	}
}
