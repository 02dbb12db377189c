package dom_test

import (
	"os"
	"path/filepath"
	"testing"

	"domscope/dom"
)

// Private files are created 0600. An existing file is narrowed before it
// is emptied or appended to. A pipe is written as it is.
func TestPrivateFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := dom.AppendPrivate(p)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("more\n")
	f.Close()
	if b, _ := os.ReadFile(p); string(b) != "old\nmore\n" {
		t.Errorf("append: %q", b)
	}
	if err := dom.WritePrivate(p, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "new\n" || fi.Mode().Perm() != dom.PrivateMode {
		t.Errorf("write: %q, mode %v", b, fi.Mode().Perm())
	}
	n := filepath.Join(dir, "new")
	if err := dom.WritePrivate(n, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(n); fi.Mode().Perm() != dom.PrivateMode {
		t.Errorf("new file mode %v", fi.Mode().Perm())
	}
	if err := dom.WritePrivate(os.DevNull, []byte("x")); err != nil {
		t.Errorf("writing to %s: %v", os.DevNull, err)
	}
	if fi, _ := os.Stat(os.DevNull); fi.Mode().Perm()&0o066 == 0 {
		t.Errorf("%s was narrowed to %v", os.DevNull, fi.Mode().Perm())
	}
}
