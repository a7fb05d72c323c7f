package trust

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex/testhome"
)

// TestMain gives the tests a home, config and cache folder of their own
// on every system (codex/testhome). Run with grantChildEnv set, the test
// binary is instead one of the processes of
// TestBooksTrustedAtOnceFromManyProcessesAllStayTrusted: it grants trust
// to one book and exits.
func TestMain(m *testing.M) {
	if store := os.Getenv(grantChildEnv); store != "" {
		os.Exit(grantChild(store, os.Getenv(grantBookEnv), os.Getenv(grantStartEnv)))
	}
	os.Exit(testhome.Run(m))
}

const (
	grantChildEnv = "QUIRE_TRUST_TEST_STORE"
	grantBookEnv  = "QUIRE_TRUST_TEST_BOOK"
	grantStartEnv = "QUIRE_TRUST_TEST_START"
)

// grantChild waits for the start file, so that every child grants at the
// same instant, then trusts book in the store.
func grantChild(store, book, start string) int {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(start); err == nil {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "no start signal")
			return 3
		}
		time.Sleep(time.Millisecond)
	}
	if err := Open(store).Grant(book, "sha256:"+book, []string{"a setting"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
