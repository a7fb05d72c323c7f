package manuscript

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanFindsRussianNamesDeclined: a name written in Cyrillic is found
// in every case, marked declined (and so an alias, which rename leaves);
// a form that is one entry's name as written and another's declined is
// the first's alone.
func TestScanFindsRussianNamesDeclined(t *testing.T) {
	cat := catalogOf(t,
		"vronsky", "name: Вронский\naliases: [Алексей Вронский]",
		"anna", "name: Анна Аркадьевна\naliases: [Анна, Каренина]",
		"karenin", "name: Алексей Александрович\naliases: [Каренин]",
		"darcy", "name: Mr. Darcy\naliases: [Darcy]",
	)
	m := NewMatcher(cat)
	type found struct {
		entry, text     string
		alias, declined bool
		others          []string
	}
	scan := func(text string) []found {
		out := []found{}
		for _, mn := range m.Scan(text) {
			out = append(out, found{mn.Entry, text[mn.Range.Start:mn.Range.End], mn.Alias, mn.Declined, mn.Others})
		}
		return out
	}
	tests := []struct {
		name, text string
		want       []found
	}{
		{"the name as written", "Вронский вошёл.", []found{{entry: "vronsky", text: "Вронский"}}},
		{"the genitive", "Она ждала Вронского.", []found{{entry: "vronsky", text: "Вронского", alias: true, declined: true}}},
		{"the instrumental of a two-word alias", "Она говорила с Алексеем Вронским.", []found{{entry: "vronsky", text: "Алексеем Вронским", alias: true, declined: true}}},
		{"each word in one case", "Он поклонился Анне Аркадьевне.", []found{{entry: "anna", text: "Анне Аркадьевне", alias: true, declined: true}}},
		{"a form that is one entry's alias and another's genitive", "Каренина приехала.", []found{{entry: "anna", text: "Каренина", alias: true}}},
		{"a declined form of two entries is ambiguous", "Он смотрел на Каренину.", []found{{entry: "anna", text: "Каренину", alias: true, declined: true, others: []string{"karenin"}}}},
		{"case as the codex writes it", "вронского нет.", []found{}},
		{"English names are not declined", "Darcys and Darcy.", []found{{entry: "darcy", text: "Darcy", alias: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, scan(tt.text))
		})
	}
	require.True(t, m.IsNameWord("вронского"), "a declined form is a word of a known name, never untracked")
}

// TestChapterCacheKeepsDeclined: a warm start decodes a declined
// mention as the scan found it.
func TestChapterCacheKeepsDeclined(t *testing.T) {
	root := newProject(t, projectFiles{"manuscript/01.md": "# Один\n\nВронский вошёл. Она ждала Вронского.\n"})
	file := filepath.Join(t.TempDir(), "chapters.bin")
	cat := catalogOf(t, "vronsky", "name: Вронский")
	openCached(t, root, file, cat)
	warm := openCached(t, root, file, cat)
	cold := coldView(t, root, cat)
	assert.Equal(t, cold, viewOf(warm.Snapshot()))
	got := viewOf(warm.Snapshot()).Scanned["manuscript/01.md"]
	require.Len(t, got, 2)
	assert.False(t, got[0].Declined)
	assert.True(t, got[1].Declined && got[1].Alias, "Вронского is the name declined")
}
