package codex

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// An entry's keys: its name, title, file stem and aliases normalized as
// lookups compare them, their words, and what partial and fuzzy matching
// read of them. A catalog makes them once per entry (keysOf), or takes
// them as a warm start's state saved them (catalog_keys_saved.go).

// keys are an entry's normalized names, computed once per entry.
type keys struct {
	name, title, stem string
	aliases           []string
	// shortest is the length in characters of the shortest name, title or
	// alias, for scoring partial matches.
	shortest int
	// unique lists each distinct key once with its best tier; words lists
	// each distinct word of the name, title and aliases; named pairs each
	// of those keys with its words, for scoring partial matches.
	unique []fuzzyKey
	words  []string
	named  []keyWords
}

type keyWords struct {
	runes int
	words []string
}

func keysOf(e *Entry) *keys {
	k := &keys{name: Normalize(e.Name), title: Normalize(e.Title), stem: stemKey(e.Stem)}
	lists := make([][]string, 0, 2+len(e.Aliases))
	lists = append(lists, splitWords(k.name), splitWords(k.title))
	if len(e.Aliases) > 0 {
		k.aliases = make([]string, 0, len(e.Aliases))
	}
	for _, a := range e.Aliases {
		key := Normalize(a)
		k.aliases = append(k.aliases, key)
		lists = append(lists, splitWords(key))
	}
	k.complete(e, lists)
	return k
}

// complete makes, from k's normalized name, title, stem and aliases, the
// rest of the keys of e: the distinct keys, the shortest, the words.
// lists are the words of the name, the title and each alias, in that
// order (split by keysOf, or as a warm start's state saved them,
// catalog_keys_saved.go).
func (k *keys) complete(e *Entry, lists [][]string) {
	// Most entries have a few names, searched in place; sets keep an
	// entry of many aliases linear to index. (Two maps an entry were a
	// fifth of the catalog's time to build at a warm start.)
	var seenKeys, seenWords map[string]bool
	if len(k.aliases) > manyNames {
		seenKeys, seenWords = map[string]bool{}, map[string]bool{}
	}
	k.unique = make([]fuzzyKey, 0, len(k.aliases)+3)
	add := func(key string, tier MatchKind) {
		if key == "" || !firstTime(seenKeys, key, func() bool {
			return slices.ContainsFunc(k.unique, func(u fuzzyKey) bool { return u.key == key })
		}) {
			return
		}
		n := runeLen(key)
		k.unique = append(k.unique, fuzzyKey{key: key, runes: n, entry: e, tier: tier})
		if tier != MatchStem && (k.shortest == 0 || n < k.shortest) {
			k.shortest = n
		}
	}
	add(k.name, MatchName)
	add(k.title, MatchTitle)
	add(k.stem, MatchStem)
	for _, a := range k.aliases {
		add(a, MatchAlias)
	}
	// Sized once: an entry's few words were appended one allocation at
	// a time.
	total, named := 0, 0
	for _, words := range lists {
		total += len(words)
		if len(words) > 0 {
			named++
		}
	}
	if total == 0 {
		return
	}
	k.words = make([]string, 0, total)
	k.named = make([]keyWords, 0, named)
	for i, words := range lists {
		if len(words) == 0 {
			continue
		}
		key := k.name
		switch {
		case i == 1:
			key = k.title
		case i > 1:
			key = k.aliases[i-2]
		}
		k.named = append(k.named, keyWords{runeLen(key), words})
		for _, w := range words {
			if firstTime(seenWords, w, func() bool { return slices.Contains(k.words, w) }) {
				k.words = append(k.words, w)
			}
		}
	}
}

// keysOfAll is keysOf of each entry, on every core for a large codex: a
// cold start builds its catalog while the other core has nothing to do.
func keysOfAll(entries []*Entry) []*keys {
	out := make([]*keys, len(entries))
	workers := min(runtime.GOMAXPROCS(0), len(entries)/keysPerWorker+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(entries); i += workers {
				out[i] = keysOf(entries[i])
			}
		})
	}
	wg.Wait()
	return out
}

// keysPerWorker is how many entries are worth a goroutine of keysOfAll.
const keysPerWorker = 2000

// manyNames is how many aliases an entry has before keysOf keeps its
// names in sets rather than searching them.
const manyNames = 8

// firstTime reports whether key is met for the first time, and notes
// it: in seen where the caller keeps a set, else by has, a search of the
// list the caller keeps.
func firstTime(seen map[string]bool, key string, has func() bool) bool {
	if seen == nil {
		return !has()
	}
	if seen[key] {
		return false
	}
	seen[key] = true
	return true
}

// stemKey normalizes a file stem or a query for comparison with stems:
// "mara-vell", "mara_vell" and "Mara Vell" are one key.
func stemKey(s string) string {
	return Normalize(strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, s))
}

// splitWords are the words of s (eachWord).
func splitWords(s string) []string {
	n := 0
	eachWord(s, func(int, int) { n++ })
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	eachWord(s, func(start, end int) { out = append(out, s[start:end]) })
	return out
}

// eachWord calls fn with the start and end of each word of s: each run of
// letters, digits and apostrophes (splitWords' words).
func eachWord(s string, fn func(start, end int)) {
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\''
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			fn(start, i)
			start = -1
		}
	}
	if start >= 0 {
		fn(start, len(s))
	}
}
