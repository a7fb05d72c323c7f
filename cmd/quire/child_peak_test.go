package main

import (
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/quire-ink/quire/codex/benchtest"
)

// childPeak follows a running child's own peak resident memory: its
// VmHWM in /proc, read every peakPoll while it runs. The mark is the
// child's own address space's, begun at its exec, where wait4's figure
// carries the parent's (maxRSS says why). Elsewhere than on Linux the
// figure is wait4's, where the system gives one.
type childPeak struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	peak int64 // bytes
	stop chan struct{}
	done chan struct{}
}

// peakPoll is how often the mark is read: a peak that rises in the last
// few milliseconds before the child exits may go unseen, far shorter
// than reading a reply or a book takes.
const peakPoll = 2 * time.Millisecond

// followPeak starts following cmd, which has been started.
func followPeak(cmd *exec.Cmd) *childPeak {
	p := &childPeak{cmd: cmd, stop: make(chan struct{}), done: make(chan struct{})}
	if runtime.GOOS != "linux" {
		// Under Wine a child's pid is Windows's, and /proc/PID may be
		// another process's.
		close(p.done)
		return p
	}
	go func() {
		defer close(p.done)
		t := time.NewTicker(peakPoll)
		defer t.Stop()
		for {
			hwm, ok := benchtest.ProcStatus(cmd.Process.Pid)["VmHWM"]
			if !ok {
				return // exited (a zombie has no memory to report), or no /proc
			}
			p.mu.Lock()
			p.peak = max(p.peak, hwm)
			p.mu.Unlock()
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// bytes is the child's peak once it has been waited for.
func (p *childPeak) bytes() int64 {
	select {
	case <-p.done:
	default:
		close(p.stop)
		<-p.done
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.peak == 0 && p.cmd.ProcessState != nil {
		return maxRSS(p.cmd) << 10
	}
	return p.peak
}
