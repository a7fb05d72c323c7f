package benchtest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
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
