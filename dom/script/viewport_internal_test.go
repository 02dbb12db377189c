package script

import (
	"testing"

	"domscope/dom"
)

// A recorded viewport step reads back, as a replay reads it, as the
// window that was emulated. It is written as the shortest step that says
// so.
func TestViewportStepRoundTrip(t *testing.T) {
	phone, _ := dom.LookupDevice("iPhone 13")
	scaled := phone
	scaled.Scale = 1
	noTouch := phone
	noTouch.Touch = false
	for _, c := range []struct {
		vp   dom.Viewport
		line string
	}{
		{dom.Viewport{}, `{"action":"viewport"}`},
		{phone, `{"action":"viewport","device":"iPhone 13"}`},
		{scaled, `{"action":"viewport","device":"iPhone 13","scale":1}`},
		{noTouch, `{"action":"viewport","device":"iPhone 13","mobile":true,"touch":false}`},
		{dom.Viewport{Width: 500, Height: 700}, `{"action":"viewport","width":500,"height":700}`},
		{dom.Viewport{Width: 500, Height: 700, Scale: 2, Touch: true}, `{"action":"viewport","width":500,"height":700,"scale":2,"mobile":false,"touch":true}`},
	} {
		vp := c.vp
		st, err := stepFor(&dom.Snapshot{}, dom.Action{Kind: dom.KindViewport, Viewport: &vp}, false, nil)
		if err != nil {
			t.Fatalf("%v: %v", c.vp, err)
		}
		line, _ := StepLine(st)
		if line != c.line {
			t.Errorf("%v: recorded as %s, want %s", c.vp, line, c.line)
		}
		parsed, err := parseStep(line, 1)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		got, err := parsed.viewport()
		if err != nil || got != c.vp {
			t.Errorf("%s replays as %+v (%v), want %+v", line, got, err, c.vp)
		}
	}
}
