package sock

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeServer answers one request at a socket of its own with lines.
func fakeServer(t *testing.T, lines ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "s")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "x.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		if _, err := r.ReadBytes('\n'); err != nil {
			return
		}
		for _, l := range lines {
			_, _ = c.Write([]byte(l))
			// After Accepted the client commits: a real server runs
			// nothing before that byte.
			if strings.Contains(l, `"accepted":true`) {
				if b, err := r.ReadByte(); err != nil || b != Commit {
					return
				}
			}
		}
	}()
	return path
}

// TestArgvOutcomes: nothing ran when no server is there, or it says
// direct, or speaks another version; an answer cut off after the server
// took the request is an error, never a second run.
func TestArgvOutcomes(t *testing.T) {
	body, _ := json.Marshal(ArgvAnswer{Code: 1, Stdout: []byte("out"), Stderr: []byte("err")})
	head := func(v string) string { return v + "\n" }
	deadline := time.Now().Add(time.Minute)
	for _, c := range []struct {
		name  string
		path  string
		want  Outcome
		isErr bool
	}{
		{"no server", filepath.Join(t.TempDir(), "none.sock"), Absent, false},
		{"another version", fakeServer(t, head(`{"protocol":3,"direct":"protocol 4, want 3"}`)), Absent, false},
		{"direct", fakeServer(t, head(`{"protocol":4,"direct":"help"}`)), Direct, false},
		{"direct once accepted", fakeServer(t, head(`{"protocol":4,"accepted":true}`), head(`{"protocol":4,"direct":"help"}`)), Direct, false},
		{"cut off", fakeServer(t, head(`{"protocol":4,"accepted":true}`), head(`{"protocol":4,"length":500}`), "{"), Answered, true},
		{"answered", fakeServer(t, head(`{"protocol":4,"accepted":true}`), head(`{"protocol":4,"length":`+strconv.Itoa(len(body))+`}`), string(body)), Answered, false},
	} {
		a, o, err := Argv(c.path, ArgvRequest{Argv: []string{"click", "1"}, Dir: "/"}, deadline)
		if o != c.want || (err != nil) != c.isErr {
			t.Errorf("%s: outcome %d, error %v; want %d, error %v", c.name, o, err, c.want, c.isErr)
		}
		if c.name == "answered" && (a.Code != 1 || string(a.Stdout) != "out" || string(a.Stderr) != "err") {
			t.Errorf("answered %+v", a)
		}
	}
}
