package benchtest

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProcStatus(t *testing.T) {
	assert.Empty(t, ProcStatus(-1), "no process")
	st := ProcStatus(os.Getpid())
	if len(st) == 0 {
		// No /proc: only Linux must have one (Wine shows Linux's too).
		require.NotEqual(t, "linux", runtime.GOOS, "no /proc/PID/status on Linux")
		return
	}
	assert.Positive(t, st["VmRSS"])
	assert.Positive(t, st["RssAnon"])
	assert.GreaterOrEqual(t, st["VmHWM"], st["VmRSS"], "the peak is at least what is resident")
}

func TestProcCPU(t *testing.T) {
	_, err := ProcCPU(-1)
	assert.Error(t, err, "no process")
	if runtime.GOOS != "linux" {
		// Under Wine a /proc/PID/stat may be another process's: only
		// that reading it does not fail badly is asked.
		_, _ = ProcCPU(os.Getpid())
		return
	}
	before, err := ProcCPU(os.Getpid())
	require.NoError(t, err)
	// Work of at least a few clock ticks (10 ms each) shows.
	for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
	}
	after, err := ProcCPU(os.Getpid())
	require.NoError(t, err)
	assert.Greater(t, after, before, "the CPU spent shows")
}
