package query

import (
	"context"
	_ "embed" // the page script
	"encoding/json"
	"strconv"
	"time"

	"domscope/dom"
)

// loadAllJS scrolls the page to its end once and waits for it to grow.
//
//go:embed loadall.js
var loadAllJS string

// Loaded is what LoadAll did: its rounds, and the page's height before
// and after, in CSS pixels.
type Loaded struct {
	Rounds   int
	From, To float64
}

// LoadAll bounds: rounds, the time in all, and how long a round waits
// for the page to grow.
const (
	LoadAllRounds = 30
	LoadAllTime   = 30 * time.Second
	loadAllWait   = 1500 * time.Millisecond
)

// LoadAll scrolls the page of target targetID to its end until it stops
// growing (seed 000 §17.4: an infinite feed loads as it nears its end),
// at most LoadAllRounds rounds and LoadAllTime, then back to where it
// stood. It reads heights only.
func LoadAll(ctx context.Context, call CallFunc, targetID string) (Loaded, error) {
	var out Loaded
	ctx, cancel := context.WithTimeout(ctx, LoadAllTime+loadAllWait)
	defer cancel()
	var world struct {
		ID int64 `json:"executionContextId"`
	}
	if err := call(ctx, "Page.createIsolatedWorld", map[string]any{"frameId": targetID, "worldName": queryWorld, "grantUniveralAccess": false}, &world); err != nil {
		return out, err
	}
	expr := "(" + loadAllJS + ")(" + strconv.Itoa(int(loadAllWait.Milliseconds())) + ")"
	start, y0 := time.Now(), -1.0
	for out.Rounds < LoadAllRounds && time.Since(start) < LoadAllTime {
		var ev struct {
			Result struct {
				Value json.RawMessage `json:"value"`
			} `json:"result"`
			ExceptionDetails *struct {
				Text string `json:"text"`
			} `json:"exceptionDetails"`
		}
		if err := call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "contextId": world.ID, "returnByValue": true, "awaitPromise": true}, &ev); err != nil {
			return out, err
		}
		var r [3]float64
		if ev.ExceptionDetails != nil || json.Unmarshal(ev.Result.Value, &r) != nil {
			return out, dom.Errorf(dom.SnapshotFailed, nil, "scrolling the page to its end failed")
		}
		out.Rounds++
		if y0 < 0 {
			y0, out.From = r[0], r[1]
		}
		out.To = r[2]
		if r[2] <= r[1] {
			break // it stopped growing
		}
	}
	back := "window.scrollTo(window.scrollX, " + strconv.FormatFloat(max(y0, 0), 'f', -1, 64) + ")"
	return out, call(ctx, "Runtime.evaluate", map[string]any{"expression": back, "contextId": world.ID}, nil)
}
