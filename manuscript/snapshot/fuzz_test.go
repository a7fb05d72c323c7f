package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "a\n\nb", "a\r\n\r\n\r\nb\n", "\n\n\n", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pieces := Split(text)
		if strings.Join(pieces, "") != text {
			t.Fatalf("the pieces of %q do not join to it", text)
		}
		for _, p := range pieces {
			if p == "" || len(p) > maxPieceBytes {
				t.Fatalf("a piece of %d bytes", len(p))
			}
		}
	})
}

// FuzzOpen opens a store file of any bytes: it never panics, and every
// version it lists either reads or says it is damaged.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	s, err := Open(dir, Options{Now: func() time.Time { return now }})
	if err != nil {
		f.Fatal(err)
	}
	for i, text := range []string{"One.\n\nTwo.\n", "One.\n\nTwo, changed.\n", ""} {
		now = now.Add(time.Hour)
		if _, err := s.Record("manuscript/01.md", text, []string{"", "named", ""}[i]); err != nil {
			f.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, FileName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(d, Options{})
		if err != nil {
			return
		}
		vs, err := s.Versions("")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if _, err := s.Text(v); err != nil && !v.Damaged && !strings.Contains(err.Error(), "damaged") && !strings.Contains(err.Error(), "missing") {
				t.Fatalf("version %s: %v", v.ID, err)
			}
		}
		_, _ = s.Record("manuscript/01.md", "After.\n", "")
	})
}
