package manuscript

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/quire-ink/quire/codex"
)

// commonWordList is SCOWL's everyday English vocabulary; the file's
// header says how it was made and carries SCOWL's license.
//
//go:embed commonwords.txt
var commonWordList string

// extraCommonWords are everyday words SCOWL cannot supply because it
// leaves out every word that is written capitalized: "I", days and
// months, abbreviated titles, languages and nationalities. Without them a
// character called Sunday would need a capital only some of the time,
// and "Mr", "Monday" or "English" would surface as untracked names. Full
// titles (sir, lady, lord, captain) and most months are in SCOWL already,
// as ordinary words.
const extraCommonWords = `
	i ok okay
	monday tuesday wednesday thursday friday saturday sunday
	january february april june july september october november december
	mr mrs ms mx messrs mister dr prof rev fr st mt jr sr
	capt col gen lt sgt cpl hon
	english french german spanish italian dutch russian chinese japanese
	american british irish scottish welsh greek latin european african asian
	christian christmas easter`

// commonWords is the set of normalized common words, built on first use.
// It is a constant table, never changed after it is built.
var commonWords = sync.OnceValue(func() map[string]struct{} {
	set := wordSet(commonWordList, 41000)
	for _, w := range strings.Fields(extraCommonWords) {
		set[w] = struct{}{}
	}
	return set
})

// wordSet is the set of the words of an embedded list, one per line,
// normalized (as codex.Normalize makes them: the lists spell café and
// fiancée with their accents, and matching folds diacritics), its
// comment lines (#) left out; size is about how many it holds.
func wordSet(list string, size int) map[string]struct{} {
	set := make(map[string]struct{}, size)
	for line := range strings.Lines(list) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		set[codex.Normalize(line)] = struct{}{}
	}
	return set
}

// isCommonWord reports whether a normalized word (lower case, diacritics
// folded, as codex.Normalize makes it) is an everyday English word.
func isCommonWord(normalizedWord string) bool {
	_, ok := commonWords()[normalizedWord]
	return ok
}

// IsCommonWord reports whether a normalized word (as codex.Normalize makes
// it) is an everyday English word: one of the 40,000 words of the list
// commonwords.txt holds (ARCHITECTURE.md says where it comes from).
func IsCommonWord(normalizedWord string) bool { return isCommonWord(normalizedWord) }
