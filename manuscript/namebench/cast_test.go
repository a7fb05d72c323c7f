package namebench

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// prideCast is a codex of the whole of Pride and Prejudice as a writer
// might keep it: its people and places, each with the names the novel
// calls them by (the excerpt's codex knows only the first chapters').
// Names some entries share ("Bennet", "Lucas") and names that are
// everyday words too ("Kitty", "Long", "Hill") are the novel's own.
var prideCast = []struct {
	typ     codex.Type
	name    string
	aliases []string
}{
	{codex.TypeCharacter, "Elizabeth Bennet", []string{"Elizabeth", "Lizzy", "Eliza", "Miss Elizabeth", "Miss Eliza Bennet"}},
	{codex.TypeCharacter, "Jane Bennet", []string{"Jane", "Miss Bennet"}},
	{codex.TypeCharacter, "Mary Bennet", []string{"Mary"}},
	{codex.TypeCharacter, "Kitty Bennet", []string{"Kitty"}},
	{codex.TypeCharacter, "Lydia Bennet", []string{"Lydia", "Miss Lydia", "Mrs. Wickham"}},
	{codex.TypeCharacter, "Mr. Bennet", nil},
	{codex.TypeCharacter, "Mrs. Bennet", nil},
	{codex.TypeCharacter, "Fitzwilliam Darcy", []string{"Mr. Darcy", "Darcy"}},
	{codex.TypeCharacter, "Georgiana Darcy", []string{"Georgiana", "Miss Darcy"}},
	{codex.TypeCharacter, "Charles Bingley", []string{"Mr. Bingley", "Bingley"}},
	{codex.TypeCharacter, "Caroline Bingley", []string{"Caroline", "Miss Bingley"}},
	{codex.TypeCharacter, "Louisa Hurst", []string{"Louisa", "Mrs. Hurst"}},
	{codex.TypeCharacter, "Mr. Hurst", nil},
	{codex.TypeCharacter, "George Wickham", []string{"Mr. Wickham", "Wickham"}},
	{codex.TypeCharacter, "William Collins", []string{"Mr. Collins", "Collins"}},
	{codex.TypeCharacter, "Charlotte Lucas", []string{"Charlotte", "Miss Lucas", "Mrs. Collins"}},
	{codex.TypeCharacter, "Sir William Lucas", []string{"Sir William"}},
	{codex.TypeCharacter, "Lady Lucas", nil},
	{codex.TypeCharacter, "Maria Lucas", []string{"Maria"}},
	{codex.TypeCharacter, "Lady Catherine de Bourgh", []string{"Lady Catherine"}},
	{codex.TypeCharacter, "Anne de Bourgh", []string{"Miss de Bourgh"}},
	{codex.TypeCharacter, "Colonel Fitzwilliam", nil},
	{codex.TypeCharacter, "Edward Gardiner", []string{"Mr. Gardiner"}},
	{codex.TypeCharacter, "Mrs. Gardiner", nil},
	{codex.TypeCharacter, "Mr. Phillips", nil},
	{codex.TypeCharacter, "Mrs. Phillips", nil},
	{codex.TypeCharacter, "Colonel Forster", nil},
	{codex.TypeCharacter, "Harriet Forster", []string{"Mrs. Forster"}},
	{codex.TypeCharacter, "Mr. Denny", []string{"Denny"}},
	{codex.TypeCharacter, "Mrs. Long", nil},
	{codex.TypeCharacter, "Mrs. Hill", nil},
	{codex.TypeCharacter, "Mrs. Reynolds", nil},
	{codex.TypeCharacter, "Mrs. Jenkinson", nil},
	{codex.TypeCharacter, "Mrs. Younge", nil},
	{codex.TypeCharacter, "Mrs. Annesley", nil},
	{codex.TypeCharacter, "Mary King", []string{"Miss King"}},
	{codex.TypeLocation, "Longbourn", nil},
	{codex.TypeLocation, "Netherfield Park", []string{"Netherfield"}},
	{codex.TypeLocation, "Pemberley", nil},
	{codex.TypeLocation, "Rosings Park", []string{"Rosings"}},
	{codex.TypeLocation, "Hunsford", nil},
	{codex.TypeLocation, "Meryton", nil},
	{codex.TypeLocation, "Lambton", nil},
	{codex.TypeLocation, "Brighton", nil},
	{codex.TypeLocation, "Gracechurch Street", nil},
	{codex.TypeLocation, "Hertfordshire", nil},
	{codex.TypeLocation, "Derbyshire", nil},
	{codex.TypeLocation, "London", nil},
}

// prideCastCodex is prideCast as codex entries.
func prideCastCodex(t *testing.T) []*codex.Entry {
	t.Helper()
	var out []*codex.Entry
	for _, c := range prideCast {
		var src strings.Builder
		src.WriteString("---\nname: " + quote(c.name) + "\n")
		if len(c.aliases) > 0 {
			src.WriteString("aliases:\n")
			for _, a := range c.aliases {
				src.WriteString("  - " + quote(a) + "\n")
			}
		}
		src.WriteString("---\n")
		id := string(c.typ) + "s/" + strings.ToLower(strings.NewReplacer(" ", "-", ".", "").Replace(c.name)) + ".md"
		e, problems := codex.Parse(id, []byte(src.String()), c.typ)
		require.NotNil(t, e, "%s: %v", c.name, problems)
		out = append(out, e)
	}
	return out
}
