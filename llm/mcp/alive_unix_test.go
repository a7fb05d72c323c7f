//go:build unix

package mcp

import (
	"os"
	"syscall"
)

// processAlive reports whether pid is a running process: signal 0 checks
// without sending anything.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}
