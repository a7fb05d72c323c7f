package codex

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewEntrySourceReadsBackItsNameAndAliases(t *testing.T) {
	for _, tt := range []struct {
		name             string
		aliases, exclude []string
	}{
		{"Wickham", []string{"Mr. Wickham"}, nil},
		{"Netherfield", []string{"Netherfield House", "Netherfield Park"}, nil},
		{"Hesper", nil, nil},
		{"Catherine", nil, []string{"Lady Catherine"}},
		{"O'Brien", []string{"Mr. O’Brien"}, []string{"O'Brien Street"}},
		{"Yes", []string{"No", "null", "true"}, []string{"off"}},
		{"Séverine Aubrac", []string{"Aubrac"}, nil},
		{"a: b", []string{"[x]", "#hash", "- dash", `"quoted"`, `back\slash`, "St. James"}, []string{"{y}", "x, y"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src, err := NewEntrySource(EntryDraft{Type: TypeCharacter, Name: tt.name, Aliases: tt.aliases, Exclude: tt.exclude})
			require.NoError(t, err)
			e, problems := Parse("codex/characters/x.md", []byte(src), TypeCharacter)
			require.NotNil(t, e, src)
			assert.Empty(t, problems, src)
			assert.Equal(t, tt.name, e.Name)
			want := tt.aliases
			if want == nil {
				want = []string{}
			}
			got := e.Aliases
			if got == nil {
				got = []string{}
			}
			assert.Equal(t, want, got, src)
			assert.Equal(t, tt.exclude, e.Exclude, src)
			assert.True(t, e.Mentions)
		})
	}
}

func TestNewEntrySourceRefusesWhatIsNoName(t *testing.T) {
	for _, bad := range []string{"", "  ", "two\nlines", "tab\there"} {
		_, err := NewEntrySource(EntryDraft{Type: TypeItem, Name: bad})
		assert.Error(t, err, "%q", bad)
		_, err = NewEntrySource(EntryDraft{Type: TypeItem, Name: "Hesper", Aliases: []string{bad}})
		assert.Error(t, err, "alias %q", bad)
		_, err = NewEntrySource(EntryDraft{Type: TypeItem, Name: "Hesper", Exclude: []string{bad}})
		assert.Error(t, err, "exclusion %q", bad)
	}
}
