package capture_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
)

// TestStreamedCaptureScrubsFramesSecrets: a page with no sensitive field
// of its own shows the value of a cross-origin frame's one-time-code
// field (privacy-echo.html). The page is decoded as its parts arrive,
// before the frame's secret is known. The scrub then removes that value
// from the page's strings. The snapshot must be built from the scrubbed
// page, not the early decoding. Both ways of attaching are checked.
func TestStreamedCaptureScrubsFramesSecrets(t *testing.T) {
	p, _, _ := capOpen(t, "privacy-echo.html?other={other}")
	capWaitFrames(t, p, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	direct, err := cdpconn.AttachDirect(ctx, cdptest.Browser(t).WebSocketURL(), false, p.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Detach()
	for _, page := range []dom.Page{p, direct} {
		var seen string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			s, err := capture.Take(ctx, page, build.Options{Lean: true})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := outputsOf(ctx, page, func(context.Context, dom.Page, build.Options) (*dom.Snapshot, error) { return s, nil })
			checkNoSecrets(t, "privacy-echo.html", out)
			if strings.Contains(out, "Cross-origin code") && strings.Contains(out, "this page copied it") {
				seen = out
				break
			}
		}
		if seen == "" {
			t.Fatal("the snapshot never showed both the page's paragraph and the frame's field")
		}
	}
}
