package dom

import (
	"errors"
	"fmt"
)

// Code is a machine-readable error class, the same in every result.
type Code string

// The error codes an action, a snapshot or a connection can fail with.
const (
	NotAttached     Code = "NOT_ATTACHED"
	AttachFailed    Code = "ATTACH_FAILED"
	SnapshotFailed  Code = "SNAPSHOT_FAILED"
	NodeNotFound    Code = "NODE_NOT_FOUND"
	NodeStale       Code = "NODE_STALE"
	NotInteractable Code = "NOT_INTERACTABLE"
	Occluded        Code = "OCCLUDED"
	CDPError        Code = "CDP_ERROR"
	Timeout         Code = "TIMEOUT"
	ValidationError Code = "VALIDATION_ERROR"
	TargetNotFound  Code = "TARGET_NOT_FOUND"
	// DialogOpen: a JavaScript dialog (alert, confirm, prompt,
	// beforeunload) blocks the page. Accepting or dismissing it recovers.
	DialogOpen Code = "DIALOG_OPEN"
	// NavigationBlocked: the navigation policy does not let an agent open
	// this address (a local file, a browser page, an origin not allowed).
	NavigationBlocked Code = "NAVIGATION_BLOCKED"
	// ExpectationFailed: the action ran, but what it was expected to do
	// (Action.Expect) did not happen. The message says what did.
	ExpectationFailed Code = "EXPECTATION_FAILED"
)

// Error is an engine error with a code and a message. A person or an LLM
// can act on it.
type Error struct {
	Code        Code   `json:"code"`
	Message     string `json:"message"`
	Recoverable bool   `json:"recoverable"`
	Err         error  `json:"-"` // the cause, if any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error. Recoverable defaults by code.
func Errorf(code Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Recoverable: recoverable(code), Err: cause}
}

func recoverable(c Code) bool {
	switch c {
	case NodeNotFound, NodeStale, NotInteractable, Occluded, Timeout, ValidationError, NotAttached, DialogOpen:
		return true
	}
	return false
}

// CodeOf returns the code of err if it is (or wraps) an *Error. Else it
// returns CDPError.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CDPError
}

// DialogBlocks is the error of anything the open dialog d blocks. It names
// the dialog and says how to close it.
func DialogBlocks(d *DialogInfo, what string) *Error {
	return Errorf(DialogOpen, nil, "%s: a JavaScript %s dialog is open (%q) and blocks the page: accept or dismiss it first ({\"action\":\"dialog\",\"accept\":true} or false)", what, d.Type, Clip(d.Message, 80))
}

// ErrPageChanged says a snapshot of the live model cannot be written out
// as a capture any more. The model has followed the page since. Take a
// new snapshot (an incremental one is cheap), then export or rebuild that.
var ErrPageChanged = errors.New("the page changed after this snapshot")
