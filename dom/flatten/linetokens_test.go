package flatten

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LineTokens counts as CountTokens does: on the recorded pages' text
// views (hostile strings included), on texts where o200k's pieces may
// span lines, and after edits, when most lines come from the cache.
func TestLineTokensCountsAsTheWhole(t *testing.T) {
	texts := map[string]string{"large": largeText(3000)}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "dom", "*.txt"))
	if len(files) < 5 {
		t.Fatalf("found %d golden text views", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(b)
	}
	texts["spanning"] = "[1] link \"a\"\n/path\n\n\n[2] text \"b.\"\n\r\n  x  \n  [3]"
	var c LineTokens
	for name, text := range texts {
		edits := []string{
			text,
			text, // all from the cache
			strings.Replace(text, "[1", "[9", 1) + "\n[99] button \"new\"",
			strings.Join(strings.Split(text, "\n")[1:], "\n"),
		}
		for i, e := range edits {
			if got, want := c.Count(e), CountTokens(e); got != want {
				t.Errorf("%s, edit %d: %d tokens line by line, %d whole", name, i, got, want)
			}
		}
	}
	if !lineBound(texts["large"]) || lineBound(texts["spanning"]) {
		t.Errorf("lineBound does not tell the texts apart")
	}
}

// Counting a 50k-like view again after one line changed, against the
// whole count.
//
//	go test ./dom/flatten -run '^$' -bench BenchmarkLineTokens -benchtime 5x
func BenchmarkLineTokens(b *testing.B) {
	text := largeText(16000)
	edited := strings.Replace(text, "Save order 8000", "Saved order 8000", 1)
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			CountTokens(edited)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			var c LineTokens
			c.Count(edited)
		}
	})
	b.Run("one-line-changed", func(b *testing.B) {
		var c LineTokens
		for b.Loop() {
			b.StopTimer()
			c.Count(text)
			b.StartTimer()
			c.Count(edited)
		}
	})
}
