package benchtest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ProcStatus is the sizes /proc/PID/status gives in kB, in bytes by
// name (VmRSS, VmHWM, RssAnon, RssFile, …): what a benchmark reports of a
// process's memory. It is empty where there is no such file (systems
// without /proc, a process gone).
func ProcStatus(pid int) map[string]int64 {
	out := map[string]int64{}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		size, isKB := strings.CutSuffix(strings.TrimSpace(rest), " kB")
		if !ok || !isKB {
			continue
		}
		if kb, err := strconv.ParseInt(size, 10, 64); err == nil {
			out[name] = kb << 10
		}
	}
	return out
}

// ProcCPU is the CPU time a process has used, user and system, from
// /proc/PID/stat: what a benchmark reports of a process's work over a
// stretch of it. An error where there is no such file.
func ProcCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 14th and 15th fields.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields after the name", pid, len(f))
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q %q", pid, f[11], f[12])
	}
	// Linux counts them in USER_HZ, 100 a second on every architecture
	// Go supports.
	return time.Duration(utime+stime) * (time.Second / 100), nil
}
