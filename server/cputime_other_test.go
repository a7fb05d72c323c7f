//go:build !unix

package server

import "time"

// cpuTime is unknown here (getrusage is a Unix call); the series
// benchmarks then report no CPU time.
func cpuTime() time.Duration { return 0 }
