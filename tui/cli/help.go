package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// HelpCommand is `domscope help [command]`. A command it does not know
// is a usage error (exit 2) with the nearest names, not the root's help.
func HelpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == nil || len(rest) > 0 || (cmd == root && len(args) > 0) {
				return UsageError{Msg: UnknownCommandMsg(root, args[len(args)-1], "domscope help")}
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// UnknownCommandMsg says word is no command, with the nearest ones.
func UnknownCommandMsg(root *cobra.Command, word, try string) string {
	msg := fmt.Sprintf("unknown command %q", word)
	if s := root.SuggestionsFor(word); len(s) > 0 {
		return msg + fmt.Sprintf("; did you mean %s? (try: %s)", strings.Join(s, " or "), try)
	}
	return msg + " (try: " + try + ")"
}

// FlagError adds "did you mean" to pflag's "unknown flag: --formt".
func FlagError(c *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return UsageError{Msg: msg}
	}
	best, bestD := "", 3
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := editDistance(name, f.Name); d < bestD || (d == bestD && best != "" && f.Name < best) {
			best, bestD = f.Name, d
		}
	})
	if best != "" && bestD <= max(1, len(name)/3) {
		msg += fmt.Sprintf("; did you mean --%s?", best)
	}
	return UsageError{Msg: msg + fmt.Sprintf(" (try: domscope %s --help)", strings.TrimPrefix(c.CommandPath(), "domscope "))}
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// WantsHelp reports whether args ask for help: the help command, or -h or
// --help before "--".
func WantsHelp(root *cobra.Command, args []string) bool {
	if len(args) > 0 && args[0] == "help" {
		return true
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}

// helpWidth is the width help is wrapped to when it is not shown on a
// terminal (a pipe, a file): the classic 80 columns.
const helpWidth = 80

// plainHelp is the writer help goes through when stdout is no terminal.
// The help renderer pads every line to 120 columns and leaves flag
// lines long. It keeps what it gets and, on Close, writes it without
// trailing blanks, wrapped to width with a hanging indent.
type plainHelp struct {
	w     io.Writer
	width int
	buf   bytes.Buffer
}

func (p *plainHelp) Write(b []byte) (int, error) { return p.buf.Write(b) }

func (p *plainHelp) Close() error {
	if p.buf.Len() == 0 {
		return nil
	}
	var out strings.Builder
	blank := false
	for _, line := range reflow(strings.Split(strings.TrimRight(p.buf.String(), "\n"), "\n"), p.width) {
		if line == "" {
			if !blank {
				out.WriteByte('\n')
			}
			blank = true
			continue
		}
		blank = false
		out.WriteString(wrapHanging(line, p.width))
		out.WriteByte('\n')
	}
	_, err := io.WriteString(p.w, out.String())
	return err
}

// reflow strips the renderer's styling and padding, and joins prose the
// source broke near 80 columns to its next line. Rewrapped one by one,
// those lines would each leave a word alone on a line.
func reflow(lines []string, width int) []string {
	var out []string
	for _, line := range lines {
		line = strings.TrimRight(ansi.Strip(line), " \t")
		if n := len(out); n > 0 && continues(out[n-1], line, width) {
			out[n-1] += " " + strings.TrimLeft(line, " ")
			continue
		}
		out = append(out, line)
	}
	return out
}

// continues reports whether next carries on prev's sentence: both prose
// at one indent (no column gap), and prev long enough to have been broken.
func continues(prev, next string, width int) bool {
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	prose := func(s string) bool {
		return strings.TrimSpace(s) != "" && !strings.Contains(strings.TrimSpace(s), "  ")
	}
	if !prose(prev) || !prose(next) || indent(prev) != indent(next) || ansi.StringWidth(prev) < width*3/4 {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(next), " ")
	listItem := first == "-" || first == "*" || strings.HasSuffix(first, ".") && strings.Trim(first, "0123456789.") == ""
	return !listItem
}

// wrapHanging wraps line to width. Continuation lines start where the
// line's text does after its first run of two or more spaces (a flag's
// description), else under its own indent. A description that would
// start past the middle starts on the next line instead.
func wrapHanging(line string, width int) string {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	hang := indent
	if i := strings.Index(line[indent:], "  "); i > 0 {
		j := indent + i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j > width/2 {
			// The key alone, then its description under it: every
			// line of such a table, so the block reads one way.
			return strings.TrimRight(line[:j], " ") + "\n" + wrapHanging(strings.Repeat(" ", indent+4)+line[j:], width)
		}
		hang = j
	}
	if ansi.StringWidth(line) <= width {
		return line
	}
	var b strings.Builder
	b.WriteString(line[:hang])
	col := hang
	for i, word := range strings.Fields(line[hang:]) {
		w := ansi.StringWidth(word)
		if i > 0 && col+1+w > width {
			b.WriteString("\n" + strings.Repeat(" ", hang))
			col = hang
		} else if i > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += w
	}
	return b.String()
}

// HelpOutput is where help goes: stdout as it is on a terminal, else a
// plainHelp to close after the command ran.
func HelpOutput() (io.Writer, func()) {
	if IsTerminal(os.Stdout) {
		return os.Stdout, func() {}
	}
	p := &plainHelp{w: os.Stdout, width: helpWidth}
	return p, func() { _ = p.Close() }
}

// MarkFlags prefixes the usage of the named flags of fs, as "with --ui: "
// on run's flags that only its step-through UI reads.
func MarkFlags(fs *pflag.FlagSet, prefix string, names []string) {
	fs.VisitAll(func(f *pflag.Flag) {
		if slices.Contains(names, f.Name) && !strings.HasPrefix(strings.ToLower(f.Usage), "with --") {
			f.Usage = prefix + f.Usage
		}
	})
}

// IsTerminal reports whether f is a terminal (a character device).
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
