package benchtest

import (
	"os"
	"runtime"
	"testing"

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
