package snapshot

import (
	"encoding/binary"
	"errors"
	"time"
)

// Record kinds, the payload's first byte.
const (
	kindPiece   = 'p'
	kindVersion = 'v'
	// kindFormat is the store's first record: the format it is written
	// in, so that a later quire can read or migrate it, and an earlier
	// one refuses to add to a store it would not understand.
	kindFormat = 'f'
)

// formatVersion is the layout of the records this quire writes.
const formatVersion = 1

// Version flags.
const (
	flagDeleted = 1 << iota
	// flagFull: the pieces are listed whole, not as a change to the
	// previous version.
	flagFull
)

// versionRecord is a version as the store holds it.
type versionRecord struct {
	seq     uint64
	time    time.Time
	path    string
	name    string
	flags   byte
	words   int
	added   int
	removed int
	// base is the seq of the version the change applies to (0 when
	// full); prefix and suffix the pieces kept from its start and end;
	// mid the pieces between them.
	base           uint64
	prefix, suffix int
	mid            []uint64
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func (v *versionRecord) encode() []byte {
	b := []byte{kindVersion}
	b = binary.AppendUvarint(b, v.seq)
	b = binary.AppendVarint(b, v.time.UnixNano())
	b = appendString(b, v.path)
	b = appendString(b, v.name)
	b = append(b, v.flags)
	for _, n := range []int{v.words, v.added, v.removed} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.AppendUvarint(b, v.base)
	b = binary.AppendUvarint(b, uint64(v.prefix))
	b = binary.AppendUvarint(b, uint64(v.suffix))
	b = binary.AppendUvarint(b, uint64(len(v.mid)))
	for _, id := range v.mid {
		b = binary.AppendUvarint(b, id)
	}
	return b
}

var errBadPayload = errors.New("a record that does not read")

// reader reads a payload's fields in order; the first failure sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errBadPayload
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errBadPayload
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count is a uvarint that must fit in what is left: a length or a
// number of items each at least one byte long.
func (r *reader) count() int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errBadPayload
		return 0
	}
	return int(n)
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.err = errBadPayload
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) byte() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func decodeVersion(p []byte) (*versionRecord, error) {
	r := reader{b: p[1:]}
	v := &versionRecord{}
	v.seq = r.uvarint()
	v.time = time.Unix(0, r.varint())
	v.path = string(r.bytes(r.count()))
	v.name = string(r.bytes(r.count()))
	v.flags = r.byte()
	v.words = int(r.uvarint())
	v.added = int(r.uvarint())
	v.removed = int(r.uvarint())
	v.base = r.uvarint()
	v.prefix = int(r.uvarint())
	v.suffix = int(r.uvarint())
	n := r.count()
	if r.err == nil {
		v.mid = make([]uint64, 0, n)
		for range n {
			v.mid = append(v.mid, r.uvarint())
		}
	}
	if r.err != nil || v.seq == 0 || v.path == "" {
		return nil, errBadPayload
	}
	return v, nil
}

// pieceHeader is a piece record's fields before its compressed text.
type pieceHeader struct {
	id   uint64
	hash [32]byte
	// textAt is where the compressed text starts in the payload.
	textAt int
}

func encodePieceHeader(id uint64, hash [32]byte) []byte {
	b := []byte{kindPiece}
	b = binary.AppendUvarint(b, id)
	return append(b, hash[:]...)
}

func decodePieceHeader(p []byte) (pieceHeader, error) {
	r := reader{b: p[1:]}
	h := pieceHeader{id: r.uvarint()}
	copy(h.hash[:], r.bytes(32))
	if r.err != nil || h.id == 0 {
		return h, errBadPayload
	}
	h.textAt = len(p) - len(r.b)
	return h, nil
}
