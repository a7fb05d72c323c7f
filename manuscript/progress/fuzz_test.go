package progress

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzProgressFile: any file where the history should be is read without
// panicking into a history within bounds, on which a sight still lands.
func FuzzProgressFile(f *testing.F) {
	f.Add(`{"version":1,"days":[{"date":"2026-11-01","first":1,"last":2,"gross":1}],"chapters":{"a.md":2}}`)
	f.Add(`{"version":1,"days":[{"date":"2026-11-02"},{"date":"2026-11-01"}],"chapters":{"":-1}}`)
	f.Add(`{"version":1}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, content string) {
		path := filepath.Join(t.TempDir(), FileName)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		s := New(Options{Path: path})
		h := s.History()
		require.LessOrEqual(t, len(h.Days), MaxDays)
		for i, d := range h.Days {
			require.GreaterOrEqual(t, d.First, 0)
			require.GreaterOrEqual(t, d.Gross, 0)
			if i > 0 {
				require.Less(t, h.Days[i-1].Date, d.Date)
			}
		}
		s.Observe(map[string]int{"a.md": 3})
		require.NoError(t, s.Flush(context.Background()))
		require.Equal(t, 3, New(Options{Path: path}).History().Total())
	})
}
