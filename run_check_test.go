package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A misspelt step is found before any browser is asked: exit 2 naming
// the line, and nothing run. The endpoint here has no browser, so a
// check after connecting would report the connection instead.
func TestRunChecksScriptFirst(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.jsonl")
	body := `{"action":"navigate","url":"http://127.0.0.1:1/"}
# a comment
{"action":"clikc","target":{"role":"button","name":"Go"}}
`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "", "run", "--endpoint", "http://127.0.0.1:1", file)
	if code != 2 || !strings.Contains(stderr, file+":3:") || !strings.Contains(stderr, "clikc") || strings.Contains(stderr, "browser") || out != "" {
		t.Errorf("run with a misspelt step on line 3: exit %d\nstdout %q\nstderr %q\nwant exit 2 naming line 3 before connecting", code, out, stderr)
	}
}
