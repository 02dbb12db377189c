//go:build !unix

package cdpconn

import "os/exec"

func setProcAttr(*exec.Cmd) {}

func killProcess(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// pidAlive cannot tell here. Every owner counts as alive, so no profile
// is removed that might be in use.
func pidAlive(int) bool { return true }

func killPid(int) {}

func processStart(int) (string, bool) { return "", false }

func processesUsing(string) ([]int, bool) { return nil, false }
