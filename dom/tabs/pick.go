// Package tabs keeps the tabs the front doors act on: the one picker
// that reads --target (and dom_tabs' tab), and the pool of live services.
package tabs

import (
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/urls"
)

// Pick chooses the tab spec names, the same for every front door
// (--target, serve, dom_tabs). It tries, in this order:
//  1. an exact target id;
//  2. a 0-based index into targets, in the order the browser lists them;
//  3. a substring of the URL (case-insensitive);
//  4. a substring of the title.
//
// The first step that matches decides. An empty spec picks the first
// tab. A substring that matches several tabs is TARGET_NOT_FOUND, and
// the error lists them.
func Pick(targets []dom.TargetInfo, spec string) (dom.TargetInfo, error) {
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
