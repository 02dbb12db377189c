package main

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestRunAlertLoop: a page opens a new alert as soon as one closes. Every
// step of a run ends with a clear result that names the open alert. It is
// never a false NOT_ATTACHED or a TIMEOUT while the tab is there. The
// process exits. Run it many times (-count=10): the defect it guards was
// a race.
func TestRunAlertLoop(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	steps := []string{
		`{"action":"click","target":{"css":"#go"}}`,
		`{"action":"dialog","accept":true}`,
		`{"action":"snapshot"}`,
		`{"action":"dialog","accept":true}`,
		`{"action":"dialog","dismiss":true}`,
		`{"action":"click","target":{"css":"#go"}}`,
		`{"action":"snapshot"}`,
	}
	stdout, stderr, code := runCLI(t, strings.Join(steps, "\n"), "run", "--endpoint", ws, "--url", base+"/actions/alertloop.html",
		"--snapshots", "json", "--keep-going", "-")
	if code != 1 {
		t.Fatalf("exit %d (want 1: the snapshots fail), stderr %q\n%s", code, stderr, stdout)
	}
	type result struct {
		Step    int    `json:"step"`
		Action  string `json:"action"`
		Success bool   `json:"success"`
		Blocked string `json:"blocked"`
		Dialog  *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"dialog"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	got := map[int]result{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if r.Action != "" {
			got[r.Step] = r
		}
	}
	for i, st := range steps {
		r, ok := got[i+1]
		if !ok {
			t.Errorf("step %d (%s): no result\n%s", i+1, st, stdout)
			continue
		}
		// An alert is open after every step, and the result says which.
		if r.Dialog == nil || r.Dialog.Type != "alert" || !strings.HasPrefix(r.Dialog.Message, "alert number ") {
			t.Errorf("step %d (%s): the result does not name the open alert: %+v", i+1, st, r)
		}
		want := ""
		switch {
		case strings.Contains(st, `"snapshot"`), strings.Contains(st, `"click"`) && i > 0:
			want = "DIALOG_OPEN" // the alert blocks the page
		}
		switch {
		case want == "" && !r.Success:
			t.Errorf("step %d (%s) failed: %+v", i+1, st, r.Error)
		case want != "" && (r.Success || r.Error == nil || r.Error.Code != want || !strings.Contains(r.Error.Message, "alert number ")):
			t.Errorf("step %d (%s): want %s naming the alert, got success %v, error %+v", i+1, st, want, r.Success, r.Error)
		}
	}
	if strings.Contains(stdout+stderr, "NOT_ATTACHED") || strings.Contains(stdout+stderr, "TIMEOUT") {
		t.Errorf("a false NOT_ATTACHED or a TIMEOUT:\n%s\n%s", stdout, stderr)
	}
}
