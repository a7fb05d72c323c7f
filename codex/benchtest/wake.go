package benchtest

import (
	"crypto/sha256"
	"slices"
	"time"
)

// A latency target that an operation must meet after the server was
// idle (a didChange after its debounce) is also a target for the
// machine: a virtual machine whose processor sleeps while the server
// waits may give the first milliseconds after waking to someone else.
// On the 2-core machine of docs/performance.md a fixed task of 2.4 ms
// run after 150 ms of sleep took 18–23 ms at p99, against 3.2 ms run
// back to back. WakeNoise measures that floor, so a benchmark can say
// how much of its p99 is the machine's.

// WakeNoise runs a fixed task of about 2 ms n times, each after idle
// of sleep, and returns its latencies, sorted, and the same task's
// median run back to back (what the task costs when nothing else
// intervenes).
func WakeNoise(idle time.Duration, n int) (lat []time.Duration, busy time.Duration) {
	buf := make([]byte, 1<<20)
	task := func() time.Duration {
		start := time.Now()
		for range 3 {
			sha256.Sum256(buf)
		}
		return time.Since(start)
	}
	warm := make([]time.Duration, 0, 20)
	for range cap(warm) {
		warm = append(warm, task())
	}
	slices.Sort(warm)
	for range n {
		time.Sleep(idle)
		lat = append(lat, task())
	}
	slices.Sort(lat)
	return lat, warm[len(warm)/2]
}
