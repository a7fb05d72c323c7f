package snapshot

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quire-ink/quire/manuscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writerEnv makes the test binary a process that records versions until
// it is killed.
const writerEnv = "QUIRE_SNAPSHOT_WRITER_DIR"

// TestAWriterThatRecordsUntilKilled is that process.
func TestAWriterThatRecordsUntilKilled(t *testing.T) {
	dir := os.Getenv(writerEnv)
	if dir == "" {
		return // run by TestAKilledWriterLosesNothing only
	}
	s, err := Open(dir, Options{})
	require.NoError(t, err)
	paras := chapter(9, 3000)
	for i := 0; ; i++ {
		paras[i%len(paras)] = fmt.Sprintf("%d %s", i, paras[i%len(paras)])
		if _, err := s.Record("manuscript/01.md", strings.Join(paras, ""), ""); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAKilledWriterLosesNothing kills a quire process while it records,
// at a different moment each round: the store opens, says what it
// repaired, and every version it lists reads back whole.
func TestAKilledWriterLosesNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no SIGKILL; the cut-off writes of TestACutOffWriteLosesNothingEarlier stand for it")
	}
	dir := t.TempDir()
	for round := range 6 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAWriterThatRecordsUntilKilled$")
		cmd.Env = append(os.Environ(), writerEnv+"="+dir)
		require.NoError(t, cmd.Start())
		// Once it has written (a test binary built with -race on a busy
		// machine starts slowly), at a different moment each round.
		require.Eventually(t, func() bool {
			info, err := os.Stat(filepath.Join(dir, FileName))
			return err == nil && info.Size() > int64(round+1)*4096
		}, time.Minute, 10*time.Millisecond, "round %d: the writer wrote nothing", round)
		time.Sleep(time.Duration(round*37) * time.Millisecond)
		require.NoError(t, cmd.Process.Kill())
		_ = cmd.Wait()

		s, err := Open(dir, Options{})
		require.NoError(t, err)
		vs, err := s.Versions("")
		require.NoError(t, err)
		require.NotEmpty(t, vs, "round %d: the writer kept versions before it was killed", round)
		for _, v := range vs {
			assert.False(t, v.Damaged, "round %d: version %s", round, v.ID)
		}
		for _, v := range vs[max(0, len(vs)-20):] {
			text, err := s.Text(v)
			require.NoError(t, err)
			assert.Equal(t, v.Words, manuscriptWords(text), "round %d: version %s reads back whole", round, v.ID)
		}
		t.Logf("round %d: %d versions, repairs %q", round, len(vs), s.Repairs())
	}
}

func manuscriptWords(text string) int { return manuscript.ChapterWords(text) }
