package codex_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

// A type in a writer's sentence takes its article and an entry's folder
// its plural.
func TestTypeInASentence(t *testing.T) {
	for _, tc := range []struct {
		typ             codex.Type
		article, plural string
	}{
		{codex.TypeCharacter, "a character", "characters"},
		{codex.TypeItem, "an item", "items"},
		{codex.TypeEvent, "an event", "events"},
		{codex.TypeOrganization, "an organization", "organizations"},
		{codex.TypeStyle, "a style", "style"},
		{"ship", "a ship", "ships"},
	} {
		assert.Equal(t, tc.article, tc.typ.WithArticle(), tc.typ)
		assert.Equal(t, tc.plural, tc.typ.Plural(), tc.typ)
	}
}
