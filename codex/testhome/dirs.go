package testhome

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ConfigDir gives the test a new user config folder, as os.UserConfigDir
// finds it on this system, and returns it (made): quire's settings and
// trust live in its quire folder. The variables are restored after the
// test.
func ConfigDir(t testing.TB) string {
	t.Helper()
	return userDir(t, os.UserConfigDir, "APPDATA", "XDG_CONFIG_HOME")
}

// CacheDir is ConfigDir for os.UserCacheDir, where quire keeps indexes.
func CacheDir(t testing.TB) string {
	t.Helper()
	return userDir(t, os.UserCacheDir, "LOCALAPPDATA", "XDG_CACHE_HOME")
}

// userDir points the variable this system's dir reads at a new folder:
// windowsVar on Windows, HOME on macOS and iOS (whose config and cache
// folders both lie under $HOME/Library, so there a test takes one of
// the two), xdgVar elsewhere.
func userDir(t testing.TB, dir func() (string, error), windowsVar, xdgVar string) string {
	t.Helper()
	base := t.TempDir()
	switch runtime.GOOS {
	case "windows":
		t.Setenv(windowsVar, base)
	case "darwin", "ios":
		t.Setenv("HOME", base)
	case "plan9":
		t.Setenv("home", base)
	default:
		t.Setenv(xdgVar, base)
	}
	got, err := dir()
	if err != nil {
		t.Fatalf("user folder: %v", err)
	}
	if rel, err := filepath.Rel(base, got); err != nil || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		t.Fatalf("user folder %s is not under %s", got, base)
	}
	if err := os.MkdirAll(got, 0o755); err != nil {
		t.Fatal(err)
	}
	return got
}

// HomeDir gives the test a new home folder, as os.UserHomeDir finds it
// on this system (HOME, USERPROFILE on Windows), and returns it: quire
// build's default folder is its Documents folder. On macOS the user
// config and cache folders move with it. The variables are restored
// after the test.
func HomeDir(t testing.TB) string {
	t.Helper()
	base := t.TempDir()
	switch runtime.GOOS {
	case "windows":
		t.Setenv("USERPROFILE", base)
	case "plan9":
		t.Setenv("home", base)
	default:
		t.Setenv("HOME", base)
	}
	got, err := os.UserHomeDir()
	if err != nil || got != base {
		t.Fatalf("home folder %q (%v) is not %s", got, err, base)
	}
	return got
}
