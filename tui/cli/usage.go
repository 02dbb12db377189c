// Package cli holds what every command of domscope shares on the command
// line: the settings file and environment, help and usage errors.
package cli

// UsageError is bad command-line input: main exits with 2 for it.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// ThemeNames are the values --theme and the file's theme accept.
var ThemeNames = []string{"auto", "dark", "light"}
