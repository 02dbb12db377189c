package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks s into lines of at most w cells. It breaks at spaces where
// it can, and inside long words (URLs) where it must.
func Wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	return strings.Split(ansi.Wrap(s, w, " /-"), "\n")
}
