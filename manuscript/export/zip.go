package export

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
)

// zipFile is one file of a DOCX or EPUB container.
type zipFile struct {
	name string
	data []byte
	// store keeps the file uncompressed (the EPUB's mimetype).
	store bool
}

// dosDate is 1980-01-01, the earliest time a zip file holds: every entry
// carries it, so a build never depends on the clock.
const dosDate = 1<<5 | 1

// writeZip writes files: the first ones in the order given (a container
// names what must come first), then the rest sorted by name. Each entry
// has the same fixed time and no extra field.
func writeZip(w io.Writer, first []zipFile, rest []zipFile) error {
	slices.SortFunc(rest, func(a, b zipFile) int {
		switch {
		case a.name < b.name:
			return -1
		case a.name > b.name:
			return 1
		}
		return 0
	})
	zw := zip.NewWriter(w)
	for _, f := range append(first, rest...) {
		if err := addZip(zw, f); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("close the zip file: %w", err)
	}
	return nil
}

func addZip(zw *zip.Writer, f zipFile) error {
	fh := &zip.FileHeader{Name: f.name, Method: zip.Deflate, ModifiedDate: dosDate}
	fh.SetMode(0o644)
	if f.store {
		// A stored entry is written raw with its sizes in the local
		// header and no data descriptor, as EPUB's mimetype must be.
		fh.Method = zip.Store
		fh.CRC32 = crc32.ChecksumIEEE(f.data)
		fh.CompressedSize64 = uint64(len(f.data))
		fh.UncompressedSize64 = uint64(len(f.data))
		fh.CreatorVersion, fh.ExternalAttrs = 0, 0
		w, err := zw.CreateRaw(fh)
		if err != nil {
			return fmt.Errorf("zip %s: %w", f.name, err)
		}
		_, err = io.Copy(w, bytes.NewReader(f.data))
		return err
	}
	w, err := zw.CreateHeader(fh)
	if err != nil {
		return fmt.Errorf("zip %s: %w", f.name, err)
	}
	if _, err := w.Write(f.data); err != nil {
		return fmt.Errorf("zip %s: %w", f.name, err)
	}
	return nil
}
