package script_test

import (
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/script"
)

// TestRunSaysWhatHappened: each step's JSON has its verdict, what
// flashed, the errors seen; a step whose expectation fails stops the run.
func TestRunSaysWhatHappened(t *testing.T) {
	base, _ := cdptest.Serve(t, domtest.Testdata("pages", "happened"))
	svc, _ := openService(t, base+"/flash.html", live.Config{})
	snap(t, svc)
	time.Sleep(700 * time.Millisecond) // the clock ticks a few times
	res, out, err := runLines(t, svc, script.Options{},
		`{"action":"click","target":{"css":"#noop"}}`,
		`{"action":"click","target":{"css":"#f100"}}`,
		`{"action":"click","target":{"css":"#validate"}}`,
		`{"action":"click","target":{"css":"#noop"},"expect":{"appears":"Saved","timeout_ms":300}}`,
		`{"action":"click","target":{"css":"#noop"}}`,
	)
	if err == nil || len(res) != 4 {
		t.Fatalf("the run did not stop at the failed expectation (err %v, %d steps):\n%s", err, len(res), out)
	}
	if res[0].Effect != EffectNone {
		t.Errorf("no-op: effect %q", res[0].Effect)
	}
	if res[1].Effect != EffectChanged || !strings.Contains(out, `"flashed":[{`) || !strings.Contains(out, `"text":"Flash 100"`) {
		t.Errorf("the flash is not in the step's JSON:\n%s", out)
	}
	if !strings.Contains(strings.Join(res[2].ErrorsSeen, "\n"), "Enter an email like a@b.c") {
		t.Errorf("errors_seen: %q", res[2].ErrorsSeen)
	}
	if res[3].Error == nil || res[3].Error.Code != ExpectationFailed || !strings.Contains(res[3].Error.Message, `"Saved" did not appear`) {
		t.Errorf("the failed expectation: %+v", res[3].Error)
	}
}

func TestRunMetrics(t *testing.T) {
	base, _ := cdptest.Serve(t, domtest.Testdata("pages", "happened"))
	svc, _ := openService(t, base+"/flash.html", live.Config{})
	res, out, err := runLines(t, svc, script.Options{Metrics: true}, `{"action":"click","target":{"css":"#stay"}}`)
	if err != nil || len(res) != 1 || res[0].Metrics == nil || res[0].Metrics.NodesAfter == 0 {
		t.Fatalf("no performance delta (err %v):\n%s", err, out)
	}
}
