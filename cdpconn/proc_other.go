//go:build !unix

package cdpconn

import "os/exec"

func setProcAttr(*exec.Cmd) {}

func killProcess(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
