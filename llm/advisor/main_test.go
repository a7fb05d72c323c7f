package advisor_test

import (
	"os"
	"testing"

	"github.com/quire-ink/quire/codex/testhome"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/advisor"
)

// TestMain gives the tests a home, config and cache folder of their own
// on every system (codex/testhome).
func TestMain(m *testing.M) { os.Exit(testhome.Run(m)) }

// loadSettings and parseSettings read the advisor's settings as the
// turn does, with the board's personas.
func loadSettings(root string) (advisor.Settings, error) {
	return advisor.LoadSettings(root, llm.PersonaIDs())
}

func parseSettings(data []byte) (advisor.Settings, error) {
	return advisor.ParseSettings(data, llm.PersonaIDs())
}
