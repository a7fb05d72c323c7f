package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inKeyringSession, set in the environment, says the test runs inside
// the D-Bus session TestKeyringSecretService started, with
// gnome-keyring's Secret Service unlocked in it.
const inKeyringSession = "QUIRE_KEYRING_SESSION"

// keyringStartFailed is the exit status of the session script when
// gnome-keyring does not start.
const keyringStartFailed = 3

// TestKeyringSecretService stores a key in a real Secret Service
// (Debian's gnome-keyring in a private dbus-run-session, unlocked for the
// test) with quire key set, and checks that quire ask sends it to the
// provider it was stored for, and that quire key remove removes it. With
// QUIRE_REQUIRE_KEYRING=1 (make test) or CI set, a keyring that cannot
// start fails the test instead of skipping it (make keyring installs it).
func TestKeyringSecretService(t *testing.T) {
	if os.Getenv(inKeyringSession) == "1" {
		keyringSession(t)
		return
	}
	// On a CI machine a keyring that cannot start is a failure whatever
	// the target that ran the test set.
	required := os.Getenv("QUIRE_REQUIRE_KEYRING") == "1" || os.Getenv("CI") != ""
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			if required {
				t.Fatalf("QUIRE_REQUIRE_KEYRING=1 and %s is missing (make keyring installs it): %v", tool, err)
			}
			t.Skipf("%s is missing (make keyring installs it)", tool)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	// The test binary runs this test again inside a new session bus, once
	// gnome-keyring has unlocked a new keyring (in a data folder of the
	// test's own) with a password on its stdin.
	script := `echo -n quire-test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit ` +
		strconv.Itoa(keyringStartFailed) + `
exec "$0" -test.run '^TestKeyringSecretService$' -test.v -test.count=1`
	cmd := exec.CommandContext(ctx, "dbus-run-session", "--", "sh", "-c", script, os.Args[0])
	home := t.TempDir()
	cmd.Env = append(os.Environ(), inKeyringSession+"=1", "HOME="+home,
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_RUNTIME_DIR="+filepath.Join(home, "run"),
		"DBUS_SESSION_BUS_ADDRESS=")
	require.NoError(t, os.MkdirAll(filepath.Join(home, "run"), 0o700))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == keyringStartFailed {
		if required {
			t.Fatalf("QUIRE_REQUIRE_KEYRING=1 and gnome-keyring did not start in a dbus-run-session:\n%s", out.String())
		}
		t.Skipf("gnome-keyring did not start:\n%s", out.String())
	}
	require.NoError(t, err, "the test inside the keyring session:\n%s", out.String())
	assert.Contains(t, out.String(), "--- PASS: TestKeyringSecretService")
}

// keyringSession is the test inside the session: quire as a subprocess,
// with the system keychain, against a scripted provider.
func keyringSession(t *testing.T) {
	require.NotEmpty(t, os.Getenv("DBUS_SESSION_BUS_ADDRESS"), "dbus-run-session sets the session bus")
	book, _ := sampleProject(t)
	model := newFakeModel(t, "Answered with the keychain's key.")
	base := model.endpoint.URL + "/v1"
	const key = "sk-keyring-7Qm2Vx9Lw4"
	quire := func(stdin string, args ...string) (string, string, error) {
		t.Helper()
		cmd := quireCommand(t, args...)
		cmd.Dir = book
		// No variable holds the key: it can only come from the keychain.
		cmd.Env = append(cmd.Env, "NO_SUCH_KEY=", "OPENAI_API_KEY=", "QUIRE_EDITOR_API_KEY=")
		cmd.Stdin = strings.NewReader(stdin)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		assert.NotContains(t, out.String()+errOut.String(), key, "quire %v printed the key", args)
		return out.String(), errOut.String(), err
	}
	ask := []string{"ask", "--base-url", base, "--model", "fake", "--api-key-env", "NO_SUCH_KEY", "Hello?"}

	out, errOut, err := quire(key+"\n", "key", "set", base+"/")
	require.NoError(t, err, "quire key set: %s", errOut)
	assert.Contains(t, out, "Stored the key for "+base+" in your keychain.")

	out, errOut, err = quire("", "key", "status", base)
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "key: from your keychain")

	out, errOut, err = quire("", ask...)
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "Answered with the keychain's key.")
	require.Len(t, model.auth, 1)
	assert.Equal(t, "Bearer "+key, model.auth[0])

	out, errOut, err = quire("", "key", "remove", base)
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "Removed the key for "+base+" in your keychain.")

	_, errOut, err = quire("", ask...)
	require.Error(t, err)
	assert.Contains(t, errOut, "no API key for "+base+": NO_SUCH_KEY is not set and no key is stored for it; store it in your keychain with quire key set "+base)
	assert.Len(t, model.auth, 1, "no request went out without the key")
}
