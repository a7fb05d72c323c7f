//go:build linux || darwin

package codex

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"syscall"
)

// readStateFile maps the state file into memory rather than reading it:
// the entries' strings point into the mapping, so their sources, most of
// the file, cost no heap and are read from disk (or the page cache) only
// when something asks for an entry's text, and the system may drop them
// again under pressure, for they are the file's own pages. The checksum
// is taken by reading the file through a small buffer, not through the
// mapping, so checking it leaves no page of the mapping resident.
//
// The mapping is never unmapped: every snapshot of the catalog shares
// its entries, and a state is read once a book opens. quire replaces the
// state file by renaming a new one over it (safefile.Replace), which
// leaves the mapped file as it was; nothing writes into it.
func readStateFile(path string) (*savedState, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	if size < int64(len(stateMagic)+4) || size != int64(int(size)) {
		return nil, fmt.Errorf("%w: not a quire state file", errCorruptState)
	}
	if err := checkStateSum(f, size); err != nil {
		return nil, err
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// No mapping to be had (a file system that refuses one): read
		// it, its checksum already checked.
		data, err := io.ReadAll(io.NewSectionReader(f, 0, size))
		if err != nil {
			return nil, err
		}
		return decodeChecked(data)
	}
	st, err := decodeChecked(data)
	if err != nil {
		// Nothing decoded from it was kept.
		_ = syscall.Munmap(data)
		return nil, err
	}
	st.mapped = data
	return st, nil
}

// checkStateSum checks the CRC-32 that ends a state file of size bytes
// against the rest of it, read in chunks.
func checkStateSum(f *os.File, size int64) error {
	buf := make([]byte, 256<<10)
	crc := crc32.NewIEEE()
	body := size - 4
	for off := int64(0); off < body; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), body-off)], off)
		crc.Write(buf[:n])
		off += int64(n)
		if err != nil && off < body {
			return fmt.Errorf("read state: %w", err)
		}
	}
	var sum [4]byte
	if _, err := f.ReadAt(sum[:], body); err != nil {
		return fmt.Errorf("read state: %w", err)
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(sum[:]) {
		return fmt.Errorf("%w: checksum mismatch", errCorruptState)
	}
	return nil
}

// unmapState lets go of the mapping of a state read but not used: no
// string of it was kept.
func unmapState(st *savedState) {
	if st.mapped != nil {
		_ = syscall.Munmap(st.mapped)
		st.mapped = nil
	}
}
