package cdpconn

import (
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/urls"
)

// PickTarget chooses a tab for --target. spec is an exact target id or a
// 0-based index into targets. The index follows the order Targets
// returns. Else spec is a substring of the URL, then of the title. An empty spec
// picks the first tab. A spec that matches several tabs by substring is
// an error that lists them.
func PickTarget(targets []dom.TargetInfo, spec string) (dom.TargetInfo, error) {
	spec = strings.TrimSpace(spec)
	if len(targets) == 0 {
		return dom.TargetInfo{}, dom.Errorf(dom.TargetNotFound, nil, "the browser has no open tabs")
	}
	if spec == "" {
		return targets[0], nil
	}
	for _, t := range targets {
		if t.ID == spec {
			return t, nil
		}
	}
	if i, err := strconv.Atoi(spec); err == nil {
		if i < 0 || i >= len(targets) {
			return dom.TargetInfo{}, dom.Errorf(dom.TargetNotFound, nil, "no tab at index %d (%d tabs, 0 to %d)", i, len(targets), len(targets)-1)
		}
		return targets[i], nil
	}
	for _, field := range []func(dom.TargetInfo) string{
		func(t dom.TargetInfo) string { return t.URL },
		func(t dom.TargetInfo) string { return t.Title },
	} {
		var hits []dom.TargetInfo
		for _, t := range targets {
			if strings.Contains(strings.ToLower(field(t)), strings.ToLower(spec)) {
				hits = append(hits, t)
			}
		}
		switch {
		case len(hits) == 1:
			return hits[0], nil
		case len(hits) > 1:
			var tabs []string
			for _, h := range hits {
				tabs = append(tabs, h.ID[:min(8, len(h.ID))]+" "+urls.Safe(h.URL))
			}
			return dom.TargetInfo{}, dom.Errorf(dom.TargetNotFound, nil, "%q matches %d tabs (%s): give a target id or index", spec, len(hits), strings.Join(tabs, ", "))
		}
	}
	return dom.TargetInfo{}, dom.Errorf(dom.TargetNotFound, nil, "no tab matches %q (by id, index, URL or title; %d tabs open)", spec, len(targets))
}
