package live

import (
	"context"

	"domscope/dom"
)

// perfMetrics reads the page's performance counters (seed 000 §18.5),
// nil when it cannot. The Performance domain is turned on once a page.
func (s *Service) perfMetrics(ctx context.Context, page dom.Page) map[string]float64 {
	s.mu.Lock()
	on := s.happened.perfOn == page
	s.mu.Unlock()
	if !on {
		if s.call(ctx, page, "Performance.enable", nil, nil) != nil {
			return nil
		}
		s.mu.Lock()
		s.happened.perfOn = page
		s.mu.Unlock()
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
