//go:build unix

package mcpclient

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the command in a process group of its own, whose
// id is the command's pid, so that killProcessGroup reaches its children.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills whatever is left of a stdio server's process
// group once its session is closed: Close must not leave a server running,
// and a wrapper (npx, sh) may have started the real server as a child that
// the SDK's own shutdown does not reach. A group that is already gone is
// not an error.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
