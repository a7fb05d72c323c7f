package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// mark begins every record, so a reader can find the next one after a
// damaged record.
var mark = []byte("QSNP")

// headerBytes is the mark, the length and the CRC.
const headerBytes = 12

// maxRecordBytes bounds one record's payload: a piece is at most
// maxPieceBytes before compression, and a version's list of pieces is
// bounded by a chapter's size.
const maxRecordBytes = 16 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frame wraps a payload as a record.
func frame(payload []byte) []byte {
	out := make([]byte, headerBytes, headerBytes+len(payload))
	copy(out, mark)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(out[8:], crc32.Checksum(payload, castagnoli))
	return append(out, payload...)
}

// scanned is what reading a store's bytes found.
type scanned struct {
	// records are the good records, in order.
	records []span
	// good is the offset after the last good record: where the next
	// record is appended once a cut-off tail is removed.
	good int64
	// damaged counts records skipped in the middle.
	damaged int
	// tail is the bytes after good that are no record: a write cut off.
	tail int64
}

// span is one record: where it starts and its payload.
type span struct {
	off     int64
	payload []byte
}

// errNoRecord is a position that holds no whole, intact record.
var errNoRecord = errors.New("no record")

// scan reads every record of data, skipping damaged ones. Linear: the
// search for the next record after a damaged one checks at most a few
// times the file's bytes in all.
func scan(data []byte) scanned {
	var s scanned
	off := 0
	// budget bounds the bytes checked while looking for a record after a
	// damaged one: many false marks each claiming a long record would
	// otherwise cost a CRC over most of the file each.
	budget := 4*len(data) + 1<<20
	for off < len(data) {
		payload, n, err := recordAt(data[off:])
		if err == nil {
			s.records = append(s.records, span{off: int64(off), payload: payload})
			off += n
			s.good = int64(off)
			continue
		}
		// Find the next record that reads whole.
		next := off + 1
		found := false
		for {
			i := bytes.Index(data[next:], mark)
			if i < 0 {
				break
			}
			next += i
			if budget <= 0 {
				break
			}
			if _, n, err := recordAt(data[next:]); err == nil {
				found = true
				break
			} else if len(data)-next >= headerBytes {
				budget -= min(int(binary.LittleEndian.Uint32(data[next+4:])), len(data)-next) + n
			}
			next++
		}
		if !found {
			s.tail = int64(len(data) - off)
			break
		}
		s.damaged++
		off = next
	}
	return s
}

// recordAt reads the record at the start of data: its payload and its
// whole length.
func recordAt(data []byte) ([]byte, int, error) {
	if len(data) < headerBytes || !bytes.Equal(data[:4], mark) {
		return nil, 0, errNoRecord
	}
	n := binary.LittleEndian.Uint32(data[4:])
	if n > maxRecordBytes || int(n) > len(data)-headerBytes {
		return nil, 0, errNoRecord
	}
	payload := data[headerBytes : headerBytes+int(n)]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(data[8:]) {
		return nil, 0, errNoRecord
	}
	return payload, headerBytes + int(n), nil
}
