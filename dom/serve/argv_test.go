package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"domscope/dom/serve/sock"
)

// A front that gave up waiting for Accepted runs its command elsewhere,
// so the service must not run it too: it runs a command line only once
// the client commits after reading Accepted. A committed one runs once.
func TestArgvRunsOnlyOnCommit(t *testing.T) {
	var ran atomic.Int32
	path, _, _ := serving(t, newFake(), time.Minute, func(s *Server) {
		s.Argv = func(_ context.Context, _ []string, _ func(string) string, stdout, _ io.Writer) int {
			ran.Add(1)
			_, _ = io.WriteString(stdout, "clicked\n")
			return 0
		}
	})
	req := sock.ArgvRequest{Protocol: Protocol, Op: sock.OpArgv, Argv: []string{"click", "3"}, Dir: t.TempDir()}

	// Read Accepted, then go away without committing.
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req)
	_, _ = c.Write(append(b, '\n'))
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil || !json.Valid(line) {
		t.Fatalf("no Accepted line: %q %v", line, err)
	}
	c.Close()

	a, o, err := sock.Argv(path, req, time.Now().Add(time.Minute))
	if err != nil || o != sock.Answered || a.Code != 0 || string(a.Stdout) != "clicked\n" {
		t.Fatalf("a committed call: %+v, outcome %v, %v", a, o, err)
	}
	// The server handles connections in order of arrival here, but
	// each on its own goroutine: the first had long closed.
	if n := ran.Load(); n != 1 {
		t.Errorf("the command ran %d times, want once (not for the client that left)", n)
	}
}
