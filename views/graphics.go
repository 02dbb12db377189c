package views

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/ansi/sixel"
)

// Graphics is how the terminal can show a picture.
type Graphics int

// The ways, from the one every terminal has to the best.
const (
	HalfBlocks Graphics = iota // "▀" with 24-bit colours: everywhere
	Sixel
	ITerm2 // iTerm2's inline images (WezTerm too)
	Kitty  // kitty's graphics protocol with Unicode placeholders (Ghostty too)
)

func (g Graphics) String() string {
	return [...]string{"half-blocks", "sixel", "iTerm2", "kitty"}[g]
}

// GraphicsFromEnv is what the environment says the terminal can do. Inside
// tmux or screen the multiplexer, not the terminal, draws: half-blocks.
func GraphicsFromEnv(getenv func(string) string) Graphics {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case getenv("TMUX") != "" || strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux"):
		return HalfBlocks
	case getenv("KITTY_WINDOW_ID") != "" || term == "xterm-kitty" || term == "xterm-ghostty" || prog == "ghostty":
		return Kitty
	case prog == "iTerm.app" || prog == "WezTerm" || getenv("LC_TERMINAL") == "iTerm2":
		return ITerm2
	}
	return HalfBlocks
}

// KittyQueryID is the image id of the kitty support query. A terminal
// that speaks the protocol answers "OK" for it.
const KittyQueryID = 31

// GraphicsQuery asks the terminal what it can draw. It sends a kitty
// graphics query: a 1×1 image the terminal checks but does not keep. It
// also asks for the primary device attributes, whose 4 means sixel.
var GraphicsQuery = ansi.KittyGraphics([]byte("AAAA"), fmt.Sprintf("i=%d", KittyQueryID), "s=1", "v=1", "a=q", "t=d", "f=24") +
	ansi.RequestPrimaryDeviceAttributes

// KittyPicture transmits img to a kitty terminal as image id, with a
// virtual placement of cols×rows cells. It returns that escape (to write
// once) and the lines of Unicode placeholders that show it. Those are
// ordinary text cells, so the picture is drawn, moved and covered like
// any other text.
func KittyPicture(img image.Image, id, cols, rows int) (transmit string, lines []string, err error) {
	var b strings.Builder
	o := &kitty.Options{Action: kitty.TransmitAndPut, ID: id, Quiet: 2, Format: kitty.RGBA,
		ImageWidth: img.Bounds().Dx(), ImageHeight: img.Bounds().Dy(), Compression: kitty.Zlib, Chunk: true,
		// Direct must be given: the encoder sends nothing for the zero value
		Transmission:     kitty.Direct,
		VirtualPlacement: true, Columns: cols, Rows: rows}
	if err := kitty.EncodeGraphics(&b, img, o); err != nil {
		return "", nil, err
	}
	// the image id is the placeholders' foreground colour
	fg := fmt.Sprintf("\x1b[38;2;%d;%d;%dm", id>>16&255, id>>8&255, id&255)
	lines = make([]string, rows)
	for r := range rows {
		var l strings.Builder
		l.WriteString(fg)
		for c := range cols {
			l.WriteRune(kitty.Placeholder)
			l.WriteRune(kitty.Diacritic(r))
			l.WriteRune(kitty.Diacritic(c))
		}
		l.WriteString("\x1b[39m")
		lines[r] = l.String()
	}
	return b.String(), lines, nil
}

// SixelPicture is img as one sixel escape.
func SixelPicture(img image.Image) string {
	var b bytes.Buffer
	_ = (&sixel.Encoder{}).Encode(&b, img)
	return ansi.SixelGraphics(0, 1, 0, b.Bytes())
}

// ITerm2Picture is img as an iTerm2 inline image of cols×rows cells.
func ITerm2Picture(img image.Image, cols, rows int) (string, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", err
	}
	content := make([]byte, base64.StdEncoding.EncodedLen(b.Len()))
	base64.StdEncoding.Encode(content, b.Bytes())
	return ansi.ITerm2(iterm2.File{Inline: true, Width: iterm2.Cells(cols), Height: iterm2.Cells(rows),
		IgnoreAspectRatio: true, DoNotMoveCursor: true, Size: int64(b.Len()), Content: content}), nil
}

// At wraps a picture escape so it is drawn with its top-left corner at
// cell (x, y) (0-based). The cursor is put back where it was.
func At(x, y int, seq string) string {
	return ansi.SaveCursor + ansi.CursorPosition(x+1, y+1) + seq + ansi.RestoreCursor
}
