//go:build linux && (amd64 || arm64)

package main

import (
	"bufio"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vma is one mapping of /proc/self/smaps and its flags.
type vma struct {
	from, to uintptr
	flags    []string
}

func readSmaps(t *testing.T) []vma { return readSmapsOf(t, "self") }

// readSmapsOf reads the mappings of process pid ("self" for this one).
func readSmapsOf(t *testing.T, pid string) []vma {
	t.Helper()
	f, err := os.Open("/proc/" + pid + "/smaps")
	require.NoError(t, err)
	defer f.Close()
	var out []vma
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && len(out) > 0 {
			out[len(out)-1].flags = strings.Fields(rest)
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasSuffix(fields[0], ":") {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		a, errA := strconv.ParseUint(lo, 16, 64)
		b, errB := strconv.ParseUint(hi, 16, 64)
		if errA == nil && errB == nil {
			out = append(out, vma{from: uintptr(a), to: uintptr(b)})
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// The heap a start fills is mapped and advised for huge pages, every
// page of it, and keeps the advice once the allocation that mapped it
// is handed back. A kernel without transparent huge pages (no
// /sys/kernel/mm/transparent_hugepage) refuses the advice, and none is
// reported given.
func TestStartHeapIsAdvisedForHugePages(t *testing.T) {
	t.Setenv("GODEBUG", "")
	from, to := prepareStartHeap()
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		assert.Zero(t, from, "advice reported on a kernel without huge pages")
		assert.Zero(t, to)
		return
	}
	require.Less(t, from, to)
	assert.GreaterOrEqual(t, int(to-from), startHeap-2*hugePage)
	assert.Zero(t, from%hugePage)
	covered := uintptr(0)
	for _, m := range readSmaps(t) {
		if m.to <= from || m.from >= to {
			continue
		}
		assert.Contains(t, m.flags, "hg", "mapping %x-%x", m.from, m.to)
		covered += min(m.to, to) - max(m.from, from)
	}
	assert.Equal(t, to-from, covered, "the advised range is mapped whole")
}

// quire serve reserves its start's heap where it can (a kernel with
// huge pages), except in a build with the race detector, where the
// reservation cost 100 MB and a 0.4 s pause (start_heap_race.go). The
// test binary serves as quire does, built as the tests are: with -race
// (make test) it holds no advised range, without it one of startHeap.
func TestServeReservesItsStartHeapOutsideTheRaceDetector(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Log("this kernel has no transparent huge pages: serve advises none, with or without the race detector")
	}
	h := newHostile(t)
	s := h.serve()
	s.stillServes()
	advised := uintptr(0)
	for _, m := range readSmapsOf(t, strconv.Itoa(s.cmd.Process.Pid)) {
		if slices.Contains(m.flags, "hg") {
			advised += m.to - m.from
		}
	}
	s.end()
	_, thpErr := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled")
	if !reserveStartHeap || thpErr != nil {
		assert.Zero(t, advised, "mappings advised for huge pages")
		return
	}
	assert.GreaterOrEqual(t, int(advised), startHeap-2*hugePage, "the start's heap is advised")
}

// GODEBUG=disablethp=1 is the runtime's switch against huge pages; it
// turns the advice off.
func TestStartHeapHeedsDisableTHP(t *testing.T) {
	t.Setenv("GODEBUG", "disablethp=1")
	from, to := prepareStartHeap()
	assert.Zero(t, from)
	assert.Zero(t, to)
}

// A limit on the address space (ulimit -v) turns the reservation off
// unless it is far above what the process needs.
func TestStartHeapLeavesALimitedAddressSpaceAlone(t *testing.T) {
	for _, tc := range []struct {
		limit uint64
		room  bool
	}{
		{math.MaxUint64, true},
		{64 << 30, true},
		{16 << 30, true},
		{4 << 30, false},
		{512 << 20, false},
		{0, false},
	} {
		assert.Equal(t, tc.room, roomForStartHeap(tc.limit), "limit %d", tc.limit)
	}
}
