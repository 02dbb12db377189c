package flatten

import "strings"

// A text view's tokens are counted line by line, so the next snapshot's
// view counts again only the lines that changed. At 50,000 elements a
// whole count takes a quarter second and makes 70 MB of garbage, at the
// moment the UI holds two trees.
//
// That is exact because o200k's split never makes a piece that runs
// over the start of a line, but for one case. A piece that ends in
// punctuation takes the line breaks and slashes after it, so a line
// that starts with '/', '\r' or '\n' (or an empty one) may join the
// piece before it. Such a line is counted with the one before it.

// chunkCounts are the token counts of a text's chunks (chunks).
type chunkCounts struct {
	text   string
	counts []int32
}

// chunks calls f with each piece of text counted on its own: a line with
// its line break, joined by the lines that may not start a piece.
func chunks(text string, f func(chunk string)) {
	start := 0
	for start < len(text) {
		end := start
		for {
			i := strings.IndexByte(text[end:], '\n')
			if i < 0 {
				end = len(text)
				break
			}
			end += i + 1
			if end >= len(text) || startsPiece(text[end]) {
				break
			}
		}
		f(text[start:end])
		start = end
	}
}

// startsPiece says whether a line starting with c cannot join a piece of
// the line before it.
func startsPiece(c byte) bool { return c != '/' && c != '\r' && c != '\n' }

// countChunks counts text's tokens by chunks. A chunk also in prev takes
// its count from there. It returns the total and each chunk's count.
func countChunks(text string, prev *chunkCounts, count func(string) int) (int, []int32) {
	var known map[string]int32
	if prev != nil {
		known = make(map[string]int32, len(prev.counts))
		i := 0
		chunks(prev.text, func(c string) {
			if i < len(prev.counts) {
				known[c] = prev.counts[i]
			}
			i++
		})
	}
	var counts []int32
	total := 0
	chunks(text, func(c string) {
		n, ok := known[c]
		if !ok {
			n = int32(count(c))
		}
		counts = append(counts, n)
		total += int(n)
	})
	return total, counts
}
