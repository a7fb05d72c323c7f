package benchtest

import (
	"testing"
	"time"
)

// BenchmarkWakeNoise is the machine's own floor under the latencies
// measured after an idle wait: a fixed task of about 2 ms run 150
// times, each after 150 ms of sleep (the server's debounce), its p50 and
// p99, beside its median run back to back (busy-µs).
func BenchmarkWakeNoise(b *testing.B) {
	for b.Loop() {
		lat, busy := WakeNoise(150*time.Millisecond, 150)
		ReportLatencies(b, lat)
		b.ReportMetric(float64(busy)/float64(time.Microsecond), "busy-µs")
	}
}
