package dialogue

import (
	"os"
	"testing"

	"github.com/quire-ink/quire/codex/testhome"
)

// TestMain gives the tests a home, config and cache folder of their own
// on every system (codex/testhome).
func TestMain(m *testing.M) { os.Exit(testhome.Run(m)) }
