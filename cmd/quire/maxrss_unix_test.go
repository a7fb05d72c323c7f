//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// maxRSS is a finished child's peak resident memory in KiB.
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
