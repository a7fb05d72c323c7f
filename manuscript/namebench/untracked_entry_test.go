package namebench

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// createdMentions makes the entry the "Create entry" quick fix makes for
// a suggestion (its file's text, read back as the codex reads it), with
// no other entry, and returns the index of the book with it and the
// entry's mentions and chapters there.
func createdMentions(t *testing.T, units []*manuscript.Unit, u manuscript.Untracked) (*manuscript.MentionIndex, int, int) {
	t.Helper()
	src, err := codex.NewEntrySource(codex.EntryDraft{Type: codex.TypeCharacter, Name: u.Name, Aliases: u.Aliases, Exclude: u.Exclude})
	require.NoError(t, err)
	e, problems := codex.Parse("codex/characters/new.md", []byte(src), codex.TypeCharacter)
	require.NotNil(t, e, src)
	require.Empty(t, problems, src)
	ix := manuscript.BuildMentionIndex(manuscript.NewMatcher(codex.NewCatalog([]*codex.Entry{e}, nil)), units)
	mentions, chapters := 0, 0
	for _, a := range ix.Appearances(e.ID) {
		mentions += a.Count
		chapters++
	}
	return ix, mentions, chapters
}

// TestUntrackedSuggestionsKeepTheirPromise takes the twenty names quire
// untracked suggests first for the whole of Pride and Prejudice with no
// codex, creates each one's entry as offered (alone: the others are not
// entries yet), and holds the entry's mentions to the count the
// suggestion promised.
func TestUntrackedSuggestionsKeepTheirPromise(t *testing.T) {
	var units []*manuscript.Unit
	for i, text := range novelChapters(t) {
		units = append(units, manuscript.NewUnit(fmt.Sprintf("manuscript/%02d.md", i+1), text, int32(i+1)))
	}
	all := manuscript.BuildMentionIndex(manuscript.NewMatcherOf(nil), units).Untracked(manuscript.UntrackedMinCount)
	require.GreaterOrEqual(t, len(all), 20)
	byName := map[string]manuscript.Untracked{}
	for _, u := range all {
		byName[u.Name] = u
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-16s %-20s %-16s %8s %8s\n", "name", "aliases", "exclude", "promised", "created")
	for _, u := range all[:20] {
		ix, mentions, chapters := createdMentions(t, units, u)
		fmt.Fprintf(&table, "%-16s %-20s %-16s %8d %8d\n", u.Name, strings.Join(u.Aliases, ", "), strings.Join(u.Exclude, ", "), u.Count, mentions)
		assert.Equal(t, u.Count, mentions, "%s %q: the created entry finds what was promised", u.Name, u.Aliases)
		assert.Equal(t, u.Units, chapters, "%s: in as many chapters", u.Name)
		// Every form counted is the entry's now: none is offered again.
		for _, left := range ix.Untracked(manuscript.UntrackedMinCount) {
			for _, form := range append([]string{u.Name}, u.Aliases...) {
				assert.NotEqual(t, form, left.Name, "%s: its form %s is tracked", u.Name, form)
			}
		}
	}
	t.Logf("the first twenty suggestions, created:\n%s", table.String())
	if os.Getenv("QUIRE_NAMEBENCH_VERBOSE") != "" {
		fmt.Print(table.String())
	}

	// A place is named as the prose names it, with its grander form an
	// alias, and the bare name is tracked once its entry is made.
	for _, place := range []struct {
		name, alias string
		bare        int
	}{{"Netherfield", "Netherfield House", 71}, {"Pemberley", "Pemberley House", 48}, {"Longbourn", "Longbourn House", 80}, {"Rosings", "Rosings Park", 46}} {
		u, ok := byName[place.name]
		require.True(t, ok, "%s is suggested by its bare name", place.name)
		assert.Contains(t, u.Aliases, place.alias)
		assert.NotContains(t, byName, place.alias, "%s is folded into %s", place.alias, place.name)
		ix, mentions, _ := createdMentions(t, units, u)
		assert.GreaterOrEqual(t, mentions, place.bare, "bare %s is tracked by its entry", place.name)
		for _, left := range ix.Untracked(1) {
			assert.NotContains(t, left.Name, place.name, "nothing of %s is left untracked", place.name)
		}
	}

	// Lydia is Lydia, not "Lydia Wickham", written once: that is her name
	// married, an alias while Wickham has no entry.
	lydia, ok := byName["Lydia"]
	require.True(t, ok)
	assert.NotContains(t, byName, "Lydia Wickham")
	assert.GreaterOrEqual(t, lydia.Count, 144)
	// Wickham is named as the prose names him most, his title an alias
	// that keeps Mrs. Wickham apart.
	wickham := byName["Wickham"]
	assert.Equal(t, []string{"Mr. Wickham"}, wickham.Aliases)
	assert.Contains(t, byName, "Mrs. Wickham")

	// With Wickham's entry made, Lydia is still offered as Lydia, and
	// keeps her promise.
	wick, _, _ := createdMentions(t, units, wickham)
	after := map[string]manuscript.Untracked{}
	for _, u := range wick.Untracked(manuscript.UntrackedMinCount) {
		after[u.Name] = u
	}
	require.Contains(t, after, "Lydia")
	assert.NotContains(t, after, "Lydia Wickham")
	assert.GreaterOrEqual(t, after["Lydia"].Count, 144)

	// The Bennets: each titled Bennet is offered apart, no one takes the
	// bare surname, and no one's count holds another's uses.
	for _, name := range []string{"Mrs. Bennet", "Mr. Bennet", "Miss Bennet"} {
		u, ok := byName[name]
		require.True(t, ok, name)
		assert.NotContains(t, u.Aliases, "Bennet", name)
	}
	assert.NotContains(t, byName, "Bennet")
	assert.Less(t, byName["Mrs. Bennet"].Count, byName["Mr. Bennet"].Count+byName["Mrs. Bennet"].Count/2+1)
}
