//go:build !unix

package mcpclient

import "os/exec"

// setProcessGroup does nothing where process groups do not exist; the SDK
// still ends the command itself on Close.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the command itself where there are no process
// groups to reach its children through.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd != nil && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
