package editortest

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWineStartFailureIsOnlyWinesInternalError(t *testing.T) {
	for _, c := range []struct {
		name string
		wine bool
		err  error
		want bool
	}{
		{"Wine's internal error, under Wine", true, &fs.PathError{Op: "fork/exec", Path: "quire.test.exe", Err: errInternal}, true},
		{"the same error outside Wine", false, &fs.PathError{Op: "fork/exec", Path: "quire.test.exe", Err: errInternal}, false},
		{"a missing program, under Wine", true, &fs.PathError{Op: "fork/exec", Path: "nowhere.exe", Err: fs.ErrNotExist}, false},
		{"any other error, under Wine", true, errors.New("Internal error."), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.wine {
				t.Setenv("QUIRE_UNDER_WINE", "1")
			} else {
				t.Setenv("QUIRE_UNDER_WINE", "")
			}
			assert.Equal(t, c.want, wineStartFailure(c.err))
		})
	}
}

// A start that fails for any other reason is not made again, even under
// Wine: the command is built once and the error comes back.
func TestStartDoesNotRetryOtherFailures(t *testing.T) {
	t.Setenv("QUIRE_UNDER_WINE", "1")
	made := 0
	_, err := Start(t.Logf, func() (*exec.Cmd, error) {
		made++
		return exec.Command(filepath.Join(t.TempDir(), "no-such-program")), nil
	})
	require.Error(t, err)
	assert.Equal(t, 1, made)
}

func TestStartRunsTheCommand(t *testing.T) {
	cmd, err := Start(t.Logf, func() (*exec.Cmd, error) {
		return exec.Command(os.Args[0], "-test.run", "^$"), nil
	})
	require.NoError(t, err)
	require.NoError(t, cmd.Wait())
}
