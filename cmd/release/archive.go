package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// archiveFile is one file packed into a release archive, at its root.
type archiveFile struct {
	Name string
	Data []byte
	Mode fs.FileMode
}

// writeArchive packs files into path (.zip or .tar.gz) with every field
// that could vary between two builds fixed: the order given, one time
// stamp, owner root, no gzip name or time. The file is written whole to a
// temporary name first, so a failed build leaves no half archive.
func writeArchive(path string, files []archiveFile, stamp time.Time) error {
	var buf bytes.Buffer
	var err error
	switch {
	case strings.HasSuffix(path, ".zip"):
		err = writeZip(&buf, files, stamp)
	case strings.HasSuffix(path, ".tar.gz"):
		err = writeTarGz(&buf, files, stamp)
	default:
		err = fmt.Errorf("unknown archive kind: %s", filepath.Base(path))
	}
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}

func writeTarGz(buf *bytes.Buffer, files []archiveFile, stamp time.Time) error {
	gz, err := gzip.NewWriterLevel(buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	// The gzip header's name and time stay empty: they would carry the
	// builder's file name and clock.
	tw := tar.NewWriter(gz)
	for _, f := range files {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     f.Name,
			Size:     int64(len(f.Data)),
			Mode:     int64(f.Mode.Perm()),
			ModTime:  stamp,
			Uname:    "root",
			Gname:    "root",
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("tar %s: %w", f.Name, err)
		}
		if _, err := tw.Write(f.Data); err != nil {
			return fmt.Errorf("tar %s: %w", f.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(buf *bytes.Buffer, files []archiveFile, stamp time.Time) error {
	zw := zip.NewWriter(buf)
	for _, f := range files {
		hdr := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: stamp}
		hdr.SetMode(f.Mode)
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return fmt.Errorf("zip %s: %w", f.Name, err)
		}
		if _, err := w.Write(f.Data); err != nil {
			return fmt.Errorf("zip %s: %w", f.Name, err)
		}
	}
	return zw.Close()
}
