//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// maxRSS is a finished child's peak resident memory in KiB, as wait4
// reports it. On Linux that figure carries the parent's: Go starts a
// child sharing the parent's memory until it execs (CLONE_VM), and exec
// keeps the larger of the two high-water marks, so a child of a test
// process that once held 300 MB reports 300 MB however little it used
// (seen 2026-12-01: /bin/true reported 303 MB). So tests and
// benchmarks read a child's own mark (followPeak), and fall back on
// this figure only where there is no /proc.
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
