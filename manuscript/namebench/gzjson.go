package namebench

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
)

// The benchmarks keep their data as gzipped JSON in testdata: the
// importers write it with WriteGzipJSON, the benchmarks read it with
// ReadGzipJSON.

// ReadGzipJSON decodes the gzipped JSON file at path into v.
func ReadGzipJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// WriteGzipJSON writes v to path as JSON, gzipped as small as gzip
// makes it.
func WriteGzipJSON(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
