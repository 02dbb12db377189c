// Command domscope shows what an LLM browser agent sees of a page. That
// is the complete VirtualNode tree next to the flattened view an LLM
// receives. The bare command opens the UI. snapshot, run, open, demo and
// mcp are its other commands; cli.go builds them and `domscope help`
// lists them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"domscope/dom"
	"domscope/tui/cli"
	"domscope/views"
)

// Exit codes: 1 for failures, 2 for connection problems and bad usage.
const (
	exitFail    = 1
	exitConnect = 2
)

// quitSignals end the program as q does: the tab it opened is closed and
// a browser it launched stops. SIGHUP is the terminal going away (its
// window closed, an ssh session dropped). Under nohup it stays ignored;
// asking for it would undo that.
var quitSignals = func() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}()

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), quitSignals...)
	err := dispatch(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	cancel()
	if err != nil {
		os.Exit(report(err, os.Stderr))
	}
}

// usageError is bad command-line input.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// report prints err as one line on stderr and returns the exit code.
func report(err error, stderr io.Writer) int {
	var ae agentExit
	if errors.As(err, &ae) {
		return ae.code // the answer is printed already
	}
	fmt.Fprintln(stderr, errorLine(err))
	var ue usageError
	var cue cli.UsageError
	if errors.As(err, &ue) || errors.As(err, &cue) {
		return exitConnect
	}
	switch dom.CodeOf(err) {
	case dom.AttachFailed, dom.TargetNotFound, dom.NotAttached:
		return exitConnect
	}
	return exitFail
}

// errorLine is err as the one line report prints. Page titles and URLs in
// messages can hold escape sequences. The one sanitizer for page strings
// makes the line safe for a terminal.
func errorLine(err error) string {
	return "domscope: " + views.Clean(err.Error())
}
