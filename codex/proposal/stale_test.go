package proposal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

const annaRel = "codex/characters/anna.md"

const anna = "---\nname: Anna Holt\nsummary: Keeps the ferry.\n---\n# Anna Holt\n\n## Backstory\n\nBorn upriver.\n"

// proposeOn makes an update of Anna's backstory from the files on disk.
func proposeOn(t *testing.T, text string) Proposal {
	t.Helper()
	root := t.TempDir()
	full := filepath.Join(root, filepath.FromSlash(annaRel))
	require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
	require.NoError(t, os.WriteFile(full, []byte(text), 0o644))
	store, err := codex.Open(context.Background(), root, codex.Options{InMemory: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	d, err := Update(store, "propose_codex_update", codex.TypeCharacter, UpdateArgs{
		Name: "Anna Holt", ChangeSummary: "x", TargetSection: "Backstory", ProposedMarkdown: "Born at the river mouth.",
	})
	require.NoError(t, err)
	return d.Proposal
}

func TestStaleRefusesALineEndingOnlyChange(t *testing.T) {
	crlf := strings.ReplaceAll(anna, "\n", "\r\n")
	tests := []struct {
		name      string
		base, now string
		want      string
	}{
		{"unchanged", anna, anna, ""},
		{"unchanged CRLF file", crlf, crlf, ""},
		{"words edited", anna, strings.Replace(anna, "upriver", "downriver", 1), StaleEdited},
		{"converted to CRLF", anna, crlf, StaleLineEndings},
		{"converted to LF", crlf, anna, StaleLineEndings},
		{"one line ending changed", anna, strings.Replace(anna, "# Anna Holt\n", "# Anna Holt\r\n", 1), StaleLineEndings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := proposeOn(t, tt.base)
			require.Equal(t, annaRel, p.Path)
			assert.Equal(t, tt.want, p.Stale(annaRel, tt.now))
			if tt.want == StaleLineEndings {
				// The hash alone would let it through, and the byte
				// ranges would then land in the wrong place.
				assert.Equal(t, p.BaseHash, codex.HashText(tt.now))
				out, err := ApplyEdits(tt.now, EditsOf(p.Edits, annaRel))
				if err == nil {
					assert.NotContains(t, strings.ReplaceAll(out, "\r\n", "\n"), "## Backstory\n\nBorn at the river mouth.\n",
						"applied blindly, the edit garbles the file")
				}
			}
			if tt.want == "" {
				out, err := ApplyEdits(tt.now, EditsOf(p.Edits, annaRel))
				require.NoError(t, err)
				assert.Contains(t, strings.ReplaceAll(out, "\r\n", "\n"), "## Backstory\n\nBorn at the river mouth.\n")
			}
		})
	}
}

func TestStaleWithoutTheBaseText(t *testing.T) {
	p := proposeOn(t, anna)
	p.Bases = nil
	assert.Equal(t, StaleNoBase, p.Stale(annaRel, anna), "an update that cannot be checked byte for byte is refused")
}
