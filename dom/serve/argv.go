package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"time"

	"domscope/dom"
	"domscope/dom/render"
	"domscope/dom/serve/sock"
)

// ArgvFunc runs a command line in the server's process, as the program
// would in its own, and returns its exit code. Output goes to stdout and
// stderr; getenv gives the client's variables, and Abs resolves files
// against the client's directory. ArgvDirect says the command needs a
// process of its own (help, a direct attach): nothing ran.
type ArgvFunc func(ctx context.Context, argv []string, getenv func(string) string, stdout, stderr io.Writer) int

// ArgvDirect is an ArgvFunc's answer for a command it does not run.
const ArgvDirect = -1

// CallFunc runs one agent command's request on a server.
type CallFunc func(ctx context.Context, req Request) (Answer, error)

type inProcessKey struct{}

// inProcess is an argv run: the server's own call, the client's directory.
type inProcess struct {
	call CallFunc
	dir  string
}

// InProcess is the server's own call when ctx is an argv run's, else
// nil. An agent command run inside the server asks it directly: dialing
// its own socket would be a detour.
func InProcess(ctx context.Context) CallFunc {
	ip, _ := ctx.Value(inProcessKey{}).(inProcess)
	return ip.call
}

// Abs is path as the client means it: against its own working
// directory when ctx is an argv run's. A path it cannot make absolute
// (no working directory) stays as it is.
func Abs(ctx context.Context, path string) string {
	if ip, ok := ctx.Value(inProcessKey{}).(inProcess); ok && !filepath.IsAbs(path) {
		return filepath.Join(ip.dir, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// commitWait bounds the wait for a client's commit after Accepted.
const commitWait = 10 * time.Second

// serveArgv answers a sock.OpArgv request: the command line runs here,
// through Argv, and the reply is a sock.ArgvAnswer.
func (srv *Server) serveArgv(ctx context.Context, c net.Conn, req Request) {
	start := time.Now()
	if srv.Argv == nil || len(req.Argv) == 0 || !filepath.IsAbs(req.Dir) || !IsCommand(req.Argv[0]) {
		_ = writeReply(c, reply{Direct: "no argv here"}, "")
		return
	}
	// Nothing runs until the client commits: one that gave up waiting
	// for Accepted closed, and runs the command elsewhere.
	_ = c.SetReadDeadline(time.Now().Add(commitWait))
	var commit [1]byte
	if _, err := io.ReadFull(c, commit[:]); err != nil || commit[0] != sock.Commit {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	// A client that goes away (^C) stops its command.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var eof [1]byte
		_, _ = c.Read(eof[:])
		cancel()
	}()
	replied := false
	// A bug after the command may have acted must not send the client
	// to the engine, which would act again.
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(srv.Stderr, "domscope serve: internal error in a command line: %q\n", fmt.Sprint(v))
			if !replied {
				ans, _ := json.Marshal(sock.ArgvAnswer{Code: 1, Stderr: []byte("domscope: internal error in domscope serve; see its log\n")})
				_ = writeReply(c, reply{}, string(ans))
			}
		}
	}()
	// The log names the tool and session of the call the command made,
	// never the command line: it may hold typed text.
	what, outcome := "no call", ""
	call := CallFunc(func(ctx context.Context, r Request) (Answer, error) {
		what = agentLogName(r)
		text, err := srv.call(ctx, r)
		if err != nil {
			outcome = string(dom.CodeOf(err))
			if errors.As(err, new(render.UsageError)) {
				outcome = "usage error"
			}
			return Answer{}, err
		}
		var a Answer
		if err := json.Unmarshal([]byte(text), &a); err != nil {
			return a, err
		}
		outcome = "ok"
		if a.Code != "" {
			outcome = string(a.Code)
		}
		return a, nil
	})
	getenv := func(k string) string { return req.Env[k] }
	var out, errb bytes.Buffer
	code := srv.Argv(context.WithValue(ctx, inProcessKey{}, inProcess{call, req.Dir}), req.Argv, getenv, &out, &errb)
	replied = true
	if code == ArgvDirect {
		_ = writeReply(c, reply{Direct: "run it in a process of its own"}, "")
		srv.logArgv("direct", "", start)
		return
	}
	if outcome == "" {
		outcome = fmt.Sprintf("exit %d", code)
	}
	b, _ := json.Marshal(sock.ArgvAnswer{Code: code, Stdout: out.Bytes(), Stderr: errb.Bytes()})
	_ = c.SetWriteDeadline(time.Now().Add(replyWriteBound))
	if err := writeReply(c, reply{}, string(b)); err != nil {
		outcome = "failed: the client did not take the reply"
	}
	srv.logArgv(what, outcome, start)
}

// logArgv is the log line of one argv request.
func (srv *Server) logArgv(what, outcome string, start time.Time) {
	if srv.Log == nil {
		return
	}
	if outcome == "" {
		fmt.Fprintf(srv.Log, "domscope serve: argv: %s, %s\n", what, render.Ms(time.Since(start)))
		return
	}
	fmt.Fprintf(srv.Log, "domscope serve: argv: %s → %s, %s\n", what, outcome, render.Ms(time.Since(start)))
}
