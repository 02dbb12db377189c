package main

import (
	"domscope/cdpconn"
	"strconv"
	"strings"
)

// replayCommand is the `domscope run` command that replays a script
// written in this session, on a fresh load of start. It carries the
// browser flags the session used and its first window, so it runs as
// given. demoBase is where --demo served its pages ("" without --demo).
// A new run serves them elsewhere, so the URL is given relative to it.
func (c *connFlags) replayCommand(demoBase, start, file string) string {
	args := []string{"domscope", "run"}
	if c.launch {
		args = append(args, "--launch")
		if c.headless {
			args = append(args, "--headless")
		}
	} else {
		// A farm's token is a secret. The hint shows where it goes, as ….
		args = append(args, "--endpoint", cdpconn.Redact(c.endpoint))
		if c.allowRemote {
			args = append(args, "--allow-remote")
		}
	}
	if c.demo && demoBase != "" {
		if rel, ok := strings.CutPrefix(start, demoBase+"/"); ok {
			args = append(args, "--demo")
			start = rel
			if start == "" {
				start = "/"
			}
		}
	}
	args = append(args, "--url", start)
	if c.device != "" {
		args = append(args, "--device", c.device)
	}
	if c.viewport != "" {
		args = append(args, "--viewport", c.viewport)
	}
	if c.scale != 0 {
		args = append(args, "--scale", strconv.FormatFloat(c.scale, 'g', -1, 64))
	}
	args = append(args, file)
	for i, a := range args {
		args[i] = shellWord(a)
	}
	return strings.Join(args, " ")
}

// shellWord quotes s for a POSIX shell. It does so when s holds anything
// but plain word characters, as a URL's ? and & are.
func shellWord(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
