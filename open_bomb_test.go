package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gzipMember is data as one gzip member.
func gzipMember(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gzipBomb is about 1 MB of gzip that inflates to 1 GiB of JSON. It looks
// like a capture (one huge string). It joins gzip members, as gzip reads
// them, so it takes no time to make.
func gzipBomb(t *testing.T) []byte {
	t.Helper()
	chunk := gzipMember(t, bytes.Repeat([]byte("A"), 8<<20))
	out := gzipMember(t, []byte(`{"version":1,"raw":{"url":"`))
	for range 128 {
		out = append(out, chunk...)
	}
	return append(out, gzipMember(t, []byte(`"}}`))...)
}

// openUsage runs `domscope open` on a file or on stdin (file "-": a pipe).
// It returns its stderr, exit code and peak memory in KiB (0 if unknown).
func openUsage(t *testing.T, file string, stdin []byte) (string, int, int64) {
	t.Helper()
	args := []string{"open", file}
	if file == "-" {
		args = []string{"open", "/dev/stdin"}
	}
	a, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(a))
	cmd.Stdin = bytes.NewReader(stdin) // not a file: the child reads a pipe
	var errb bytes.Buffer
	cmd.Stderr = &errb
	_ = cmd.Run()
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return errb.String(), cmd.ProcessState.ExitCode(), rss
}

// TestOpenGzipBomb: a file of about 1 MB that inflates to 1 GiB is
// refused with a clear error, in little memory. It is refused at once
// when its gzip trailer says how big it is. It is refused at once when it
// holds more than its trailer says (here: members joined). From a pipe it
// is refused once MaxCaptureSize has come out. Before, open inflated and
// buffered all of it (3 GB, 20-30 s).
func TestOpenGzipBomb(t *testing.T) {
	bomb := gzipBomb(t)
	dir := t.TempDir()
	honest := append([]byte(nil), bomb...)
	binary.LittleEndian.PutUint32(honest[len(honest)-4:], uint32(1<<30+len(`{"version":1,"raw":{"url":"`)+3))
	for _, c := range []struct {
		name  string
		data  []byte
		want  string
		maxMB int64
	}{
		{"bomb.gz", honest, "says it holds 1024 MiB once uncompressed, over the 512 MiB", 200},
		{"joined.gz", bomb, "holds more than its gzip trailer says", 200},
		{"-", bomb, "over 512 MiB once uncompressed", 1024},
	} {
		path := c.name
		var stdin []byte
		if c.name == "-" {
			stdin = c.data
		} else {
			path = filepath.Join(dir, c.name)
			if err := os.WriteFile(path, c.data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		stderr, code, rss := openUsage(t, path, stdin)
		if code == 0 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "refusing it") {
			t.Errorf("open %s (%d bytes): exit %d, stderr %q; want a refusal saying %q", c.name, len(c.data), code, stderr, c.want)
		}
		if rss > c.maxMB<<10 {
			t.Errorf("open %s peaked at %d MiB, want under %d MiB", c.name, rss>>10, c.maxMB)
		}
		t.Logf("open %s: %d MiB peak", c.name, rss>>10)
	}
}
