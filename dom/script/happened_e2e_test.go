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

// TestRunWaitAnswersWithChange: a wait step takes text, gone, url or
// quiet with a timeout, as dom_wait does, and answers with the change.
// A URL matches case aside, as the agent CLI's wait --url always did.
func TestRunWaitAnswersWithChange(t *testing.T) {
	base, _ := cdptest.Serve(t, domtest.Testdata("pages", "happened"))
	svc, _ := openService(t, base+"/flash.html", live.Config{})
	snap(t, svc)
	time.Sleep(700 * time.Millisecond) // the clock ticks a few times
	res, out, err := runLines(t, svc, script.Options{KeepGoing: true},
		`{"action":"click","target":{"css":"#late1500"}}`,
		`{"action":"wait","text":"Export ready 1500","timeout":5000}`,
		`{"action":"click","target":{"css":"#stay"}}`,
		`{"action":"wait","url":"Flash.HTML"}`, // case aside, as --text
		`{"action":"wait","url":"nowhere","timeout":300}`,
		`{"action":"wait","quiet":2000,"timeout":1000}`,
		`{"action":"click","target":{"css":"#noop"}}`,
	)
	if err == nil || len(res) != 7 {
		t.Fatalf("want two failed waits of 7 steps (err %v, %d steps):\n%s", err, len(res), out)
	}
	if strings.Contains(strings.Join(res[0].Changes.Flat, "\n"), "Export ready 1500") {
		t.Logf("the machine is so slow the effect came within the click: the wait has no change to say")
	} else if !res[1].Success || !strings.Contains(strings.Join(res[1].Changes.Flat, "\n"), "+ Export ready 1500") {
		t.Errorf("the wait for a text does not answer with the change:\n%s", out)
	}
	if !res[3].Success {
		t.Errorf("wait url: %+v", res[3].Error)
	}
	if res[4].Success || res[4].Error.Code != Timeout {
		t.Errorf("a wait for an URL that never comes: %+v", res[4].Error)
	}
	if res[5].Success || res[5].Error.Code != Timeout || !strings.Contains(res[5].Error.Message, "did not stay still") {
		t.Errorf("the clock never stops, yet the wait for quiet: %+v", res[5].Error)
	}
	if res[6].Later != nil && strings.Contains(strings.Join(res[6].Later.Flat, "\n"), "Export ready 1500") {
		t.Errorf("the change the wait showed is said again as a late effect: %+v", res[6].Later)
	}
	// gone: the alert Save shows leaves.
	res, out, err = runLines(t, svc, script.Options{},
		`{"action":"click","target":{"css":"#save"}}`,
		`{"action":"wait","text":"Invalid email address","timeout":5000}`,
		`{"action":"wait","gone":"Invalid email address","timeout":5000}`,
	)
	if err != nil || len(res) != 3 || !strings.Contains(strings.Join(res[2].Changes.Flat, "\n"), "- ") ||
		!strings.Contains(strings.Join(res[2].Changes.Flat, "\n"), "Invalid email address") {
		t.Errorf("the wait for a text to go does not answer with its going (err %v):\n%s", err, out)
	}
}

// TestRunSnapshotsSayLater: the snapshot printed after a sleep says what
// changed by itself since the last step, as dom_snapshot does.
func TestRunSnapshotsSayLater(t *testing.T) {
	base, _ := cdptest.Serve(t, domtest.Testdata("pages", "happened"))
	for _, mode := range []string{"text", "json"} {
		svc, _ := openService(t, base+"/flash.html", live.Config{})
		snap(t, svc)
		time.Sleep(700 * time.Millisecond)
		res, out, err := runLines(t, svc, script.Options{Snapshots: mode},
			`{"action":"click","target":{"css":"#late400"}}`,
			`{"action":"wait","ms":1500}`,
			`{"action":"type","target":{"css":"#otp"},"text":"S3cretCode"}`,
			`{"action":"click","target":{"css":"#secretflash"}}`,
			`{"action":"wait","ms":1000}`,
			`{"action":"wait","text":"Export ready"}`,
		)
		if strings.Contains(out, "S3cretCode") || strings.Contains(out, "987654") {
			t.Errorf("%s: a sensitive field's text is in the output:\n%s", mode, out)
		}
		if err != nil || len(res) != 6 {
			t.Fatalf("%s: err %v:\n%s", mode, err, out)
		}
		if strings.Contains(strings.Join(res[0].Changes.Flat, "\n"), "Export ready") {
			t.Skipf("the machine is so slow the effect came within the click: %s", out)
		}
		after := out[strings.Index(out, `"action":"wait"`):]
		want := "# since the last step ("
		if mode == "json" {
			want = `"later":{"after_ms":`
		}
		if !strings.Contains(after, want) || !strings.Contains(after, "+ Export ready 400") {
			t.Errorf("%s: the snapshot after the sleep does not say the late effect:\n%s", mode, after)
		}
	}
}
