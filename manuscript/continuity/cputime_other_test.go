//go:build !unix

package continuity

import "time"

// cpuTime is unknown here; benchmarks then report no CPU time.
func cpuTime() time.Duration { return 0 }
