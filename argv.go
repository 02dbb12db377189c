package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"domscope/dom/serve"
)

// The small front binary (tui/front) sends the agent commands' command
// lines to the daemon, which runs them here, on the same command tree,
// so the answer is the one this program prints. It saves the start of
// this large program on every command.

// errDirect ends a daemon's run of a command line it must not run: help,
// or anything that would attach on its own. The front then execs this
// program.
var errDirect = errors.New("run it in a process of its own")

type clientDirKey struct{}

// runArgv is the daemon's serve.ArgvFunc.
func runArgv(ctx context.Context, argv []string, dir string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(argv) == 0 || !frontCommand(argv[0]) || !filepath.IsAbs(dir) {
		return serve.ArgvDirect
	}
	ctx = context.WithValue(ctx, clientDirKey{}, dir)
	err := dispatch(ctx, argv, getenv, stdout, stderr)
	switch {
	case errors.Is(err, errDirect):
		return serve.ArgvDirect
	case err != nil:
		return report(err, stderr)
	}
	return 0
}

// inDaemon reports whether ctx is a command line the daemon runs.
func inDaemon(ctx context.Context) bool { return serve.InProcess(ctx) != nil }

// frontCommand reports whether the front binary sends command name to
// the daemon: the agent commands, and snapshot (with a session).
func frontCommand(name string) bool {
	return name == "snapshot" || slices.ContainsFunc(serve.Commands, func(c serve.Command) bool { return commandName(c) == name })
}

// commandName is the command's first word.
func commandName(c serve.Command) string {
	name, _, _ := strings.Cut(c.Use, " ")
	return name
}

// clientAbs is path as the client means it: against its own working
// directory when the daemon runs its command line.
func clientAbs(ctx context.Context, path string) (string, error) {
	if dir, ok := ctx.Value(clientDirKey{}).(string); ok && !filepath.IsAbs(path) {
		return filepath.Join(dir, path), nil
	}
	return filepath.Abs(path)
}
