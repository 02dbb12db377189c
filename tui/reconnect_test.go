package tui

import (
	"context"
	"strings"
	"testing"

	"domscope/dom"
)

// tabList is a browser that has these tabs and attaches to none. That is
// enough for the picker, which only lists.
type tabList []dom.TargetInfo

func (l tabList) Targets(context.Context) ([]dom.TargetInfo, error) { return l, nil }
func (l tabList) Attach(context.Context, string) (dom.Page, error) {
	return nil, dom.Errorf(dom.AttachFailed, nil, "this test attaches nowhere")
}
func (l tabList) NewPage(context.Context, string) (dom.Page, error) {
	return nil, dom.Errorf(dom.AttachFailed, nil, "this test opens nothing")
}
func (l tabList) Close() error { return nil }

// The service gave up because the browser came back without the tab. Then
// the picker opens by itself with the browser's tabs. When it gave up for
// another reason, it does not, and says what T does.
func TestTabGoneOpensThePicker(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		picker bool
	}{
		{"tab gone", dom.Errorf(dom.TargetNotFound, nil, "the browser is back but the tab is not"), true},
		{"browser gone", dom.Errorf(dom.NotAttached, nil, "could not reconnect after 12 attempts"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestActor(formPage("Sign up"))
			m := started(t, a, 120, 40)
			m.cfg.Browser = tabList{{ID: "NEW1", Type: "page", Title: "Reborn tab", URL: "http://127.0.0.1:9/other.html"}}
			m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "state", State: dom.Reconnecting}}})
			_, cmd := m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "state", State: dom.Disconnected, Err: tc.err}}})
			settle(t, m, cmd)
			s := plainScreen(m)
			_, open := topAs[*tabsLayer](m)
			if open != tc.picker {
				t.Fatalf("picker open = %v, want %v:\n%s", open, tc.picker, s)
			}
			if tc.picker && (!strings.Contains(s, "Reborn tab") || !strings.Contains(s, "pick a tab")) {
				t.Errorf("picker or its reason missing:\n%s", s)
			}
			if !tc.picker && !strings.Contains(s, "T picks a tab") {
				t.Errorf("no hint about T:\n%s", s)
			}
			if m.op.busy != nil {
				t.Errorf("still busy: %s", m.op.busy.label)
			}
		})
	}
}
