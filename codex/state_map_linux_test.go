//go:build linux

package codex

import (
	"fmt"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Opening a book from its saved state reads no entry's text: the state
// is mapped, and its sources stay on disk until something asks for one.
// The sources' pages are made unreadable here, so a read of any of them
// while the catalog is built and each entry's story read (what a book's
// opening does with every entry) faults, and fails the test.
func TestOpeningFromTheStateReadsNoEntryText(t *testing.T) {
	var entries []*Entry
	for i := range 60 {
		status := "confirmed"
		if i == 59 {
			status = "dead"
		}
		src := fmt.Sprintf("---\ntype: character\nname: Person %d\naliases: [P%d]\nstatus: %s\n---\n# Person %d\n\n%s\n",
			i, i, status, i, strings.Repeat("A line of their history. ", 60))
		e, _ := Parse(fmt.Sprintf("codex/characters/person-%d.md", i), []byte(src), TypeCharacter)
		entries = append(entries, e)
	}
	dir := t.TempDir()
	require.NoError(t, writeState(dir, &savedState{Schema: SchemaVersion, Root: "/books/p", Entries: entries}))
	st, err := readState(dir)
	require.NoError(t, err)

	// The dead person's story is read from their text, as it must be:
	// their source, last, stays readable. The others lie before it, in
	// the order of the entries.
	base := unsafe.Pointer(unsafe.StringData(st.Entries[0].Source))
	last := st.Entries[58].Source
	end := uintptr(unsafe.Pointer(unsafe.StringData(last))) + uintptr(len(last)) - uintptr(base)
	page := uintptr(syscall.Getpagesize())
	pad := (page - uintptr(base)%page) % page
	size := (end - pad) &^ (page - 1)
	require.Greater(t, size, 4*page, "the sources span pages to protect")
	inner := unsafe.Slice((*byte)(unsafe.Add(base, pad)), size)
	require.NoError(t, syscall.Mprotect(inner, syscall.PROT_NONE))
	defer func() { require.NoError(t, syscall.Mprotect(inner, syscall.PROT_READ)) }()

	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var dead []string
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("an entry's text was read while the book opened: %v", r)
			}
		}()
		cat := NewCatalog(st.Entries, nil)
		for _, e := range cat.All() {
			if s := cat.Story(e); s.Status == "dead" {
				dead = append(dead, e.Name)
			}
		}
	}()
	assert.Equal(t, []string{"Person 59"}, dead, "the dead person's story still read")
}
