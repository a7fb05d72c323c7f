//go:build !unix

package main

import "os/exec"

// maxRSS is unknown here (no getrusage); the scale benchmark then
// reports no peak memory.
func maxRSS(*exec.Cmd) int64 { return 0 }
