package serve

import (
	"encoding/json"
	"io"

	"domscope/dom"
)

// Print prints what the MCP tool answered: on out when it is done, on
// errw when it failed. asJSON prints the action's result instead, steps
// adds its `run` step, file takes a screenshot's PNG. The code is the
// CLI's exit code: 0 done, 1 the action failed, 2 no tab or browser.
func (a Answer) Print(out, errw io.Writer, asJSON, steps bool, file string) (int, error) {
	if file != "" && a.Image != nil {
		if err := dom.WritePrivate(file, a.Image); err != nil {
			return 0, err
		}
	}
	text := a.Text
	if asJSON && !a.Error {
		b, _ := json.MarshalIndent(a.Result, "", "  ")
		text = string(b) + "\n"
	}
	if steps && a.Step != "" {
		text += "step: " + a.Step + "\n"
	}
	if !a.Error {
		_, err := io.WriteString(out, text)
		return 0, err
	}
	_, _ = io.WriteString(errw, text)
	switch a.Code {
	case dom.AttachFailed, dom.TargetNotFound, dom.NotAttached:
		return 2, nil
	}
	return 1, nil
}
