// Package benchtest is what the benchmarks of several packages share:
// the latency figures the README states its targets in.
package benchtest

import (
	"slices"
	"testing"
	"time"
)

// ReportLatencies reports the median and the 99th percentile of a
// benchmark's per-operation latencies, in microseconds (p50-µs, p99-µs):
// a writer feels the slow edits, which ns/op averages away. It sorts lat.
func ReportLatencies(b *testing.B, lat []time.Duration) {
	ReportLatenciesAs(b, "", lat)
}

// ReportLatenciesAs is ReportLatencies with the metrics' names begun by
// prefix.
func ReportLatenciesAs(b *testing.B, prefix string, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / float64(time.Microsecond)
	}
	b.ReportMetric(at(0.50), prefix+"p50-µs")
	b.ReportMetric(at(0.99), prefix+"p99-µs")
}
