package cdpconn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"domscope/dom"
)

// pageSetupCall is the first call chromedp sends to a page after
// Target.attachToTarget. It then enables Page, DOM, CSS... A stuck
// renderer never answers it. A script that never yields can stick it, or
// layout of a DOM nested thousands deep.
const pageSetupCall = "Runtime.enable"

// timedOut reports whether err is a deadline that ran out, ours or the
// caller's. A refusal or a closed connection is not.
func timedOut(err error) bool { return errors.Is(err, context.DeadlineExceeded) }

// notAnswering is the error for a browser or page that is there but gives
// no reply. It names the call, so it does not read as "no browser".
func notAnswering(code dom.Code, who, method string, took time.Duration, cause error) *dom.Error {
	hint := "it may be overloaded or hung (or the port is not a DevTools port)"
	if !strings.HasPrefix(who, "the browser") {
		hint = "a script or layout keeps the page busy (a DOM nested thousands of levels deep can): reload or close the tab, or pick another with --target"
	}
	return dom.Errorf(code, cause, "%s is not answering the DevTools protocol: %s got no reply in %s; %s",
		who, method, took.Round(100*time.Millisecond), hint)
}

// attachErr explains a failed attach to a page target. When the call ran
// out of time, it says which did not answer: the browser
// (Target.attachToTarget) or the page (pageSetupCall).
func attachErr(err error, targetID string, attached bool, took time.Duration) error {
	if !timedOut(err) {
		return dom.Errorf(dom.AttachFailed, err, "cannot attach to target %s", targetID)
	}
	if attached {
		return notAnswering(dom.AttachFailed, fmt.Sprintf("page %s", targetID), pageSetupCall, took, nil)
	}
	return notAnswering(dom.AttachFailed, "the browser", "Target.attachToTarget", took, nil)
}
