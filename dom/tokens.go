package dom

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// o200k is loaded on first use: building its tables takes a moment and
// most runs never count tokens.
var o200k = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.O200kBase)
})

// CountTokens counts o200k_base tokens of s (the GPT-4o family encoding,
// vocabulary embedded in the binary). If the codec cannot load it falls
// back to an estimate of one token per four bytes.
func CountTokens(s string) int {
	if s == "" {
		return 0
	}
	c, err := o200k()
	if err == nil {
		if n, err := c.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 3) / 4
}
