package dialogue

import (
	"fmt"

	"github.com/quire-ink/quire/codex"
)

// FindCharacter finds the character a writer names, as quire lookup
// finds a name: exact first, then partial, then one typo away. guessed
// says the match was partial or fuzzy, for the caller to say which
// character it took. A name that is another kind of entry, or no entry,
// is an error that says so.
func FindCharacter(cat *codex.Catalog, name string) (e *codex.Entry, guessed bool, err error) {
	if cat == nil {
		return nil, false, fmt.Errorf("no character is called %q", name)
	}
	ms := cat.Lookup(name, codex.TypeCharacter)
	if len(ms) == 0 {
		if other := cat.Lookup(name, ""); len(other) > 0 && other[0].Kind != codex.MatchPartial && other[0].Kind != codex.MatchFuzzy {
			o := other[0].Entry
			return nil, false, fmt.Errorf("%s is %s in the codex, not a character", codex.PrintableName(o.Name), o.Type.WithArticle())
		}
		return nil, false, fmt.Errorf("no character is called %q", name)
	}
	m := ms[0]
	return m.Entry, m.Kind == codex.MatchPartial || m.Kind == codex.MatchFuzzy, nil
}
