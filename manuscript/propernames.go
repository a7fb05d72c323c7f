package manuscript

import (
	_ "embed"
	"sync"
)

// properNameList is SCOWL's proper names of people and places; the
// file's header says how it was made and carries SCOWL's license.
//
//go:embed propernames.txt
var properNameList string

// properNames is the set of normalized proper names, built on first use:
// only the name-spelling check asks. It is a constant table, never
// changed after it is built.
var properNames = sync.OnceValue(func() map[string]struct{} { return wordSet(properNameList, 10100) })

// IsKnownName reports whether a normalized word (as codex.Normalize makes
// it) is a name an English dictionary knows, a person's or a place's
// ("charles", "julia", "rome"): one of the 10,000 of propernames.txt
// (ARCHITECTURE.md says where they come from). Such a word beside a
// character's name is another name, not a slip of it.
func IsKnownName(normalizedWord string) bool {
	_, ok := properNames()[normalizedWord]
	return ok
}
