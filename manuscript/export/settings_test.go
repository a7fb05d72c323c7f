package export

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex/settings"
)

func TestReadSettings(t *testing.T) {
	tests := []struct {
		name, book, user string
		want             Settings
		problems         []string
	}{
		{
			name: "every field",
			book: "title: The Bell\nbuild:\n  author: Wren Halloway\n  surname: Halloway-Fenn\n  contact: |\n    14 Row\n    wren@example.com\n  language: en-GB\n  identifier: urn:isbn:9780000000000\n  paper: A4\n",
			want: Settings{Title: "The Bell", Author: "Wren Halloway", Surname: "Halloway-Fenn", Contact: []string{"14 Row", "wren@example.com"},
				Language: "en-GB", languageSet: true, Identifier: "urn:isbn:9780000000000", Paper: "a4"},
		},
		{
			name: "contact as a list; the folder names an untitled book",
			book: "build:\n  author: W\n  contact: [a, b]\n",
			want: Settings{Title: "My Novel", Author: "W", Contact: []string{"a", "b"}, Language: "en", Paper: "letter"},
		},
		{
			name: "the writer's config.yaml carries the name for every book",
			user: "build:\n  author: Wren\n  contact: [x]\n",
			want: Settings{Title: "My Novel", Author: "Wren", Contact: []string{"x"}, Language: "en", Paper: "letter"},
		},
		{
			name:     "bad values are located",
			book:     "build:\n  author: [a]\n  paper: legal\n  font: Courier\n  contact: {a: b}\n",
			want:     Settings{Title: "My Novel", Language: "en", Paper: "letter"},
			problems: []string{"quire.yaml: line 2: build: author must be a piece of text", `quire.yaml: line 3: build: paper is letter or a4, not "legal"`, `quire.yaml: line 4: build: has no setting "font"; it has author, surname, contact, language, identifier, paper, dashes, output`, "quire.yaml: line 5: build: contact must be a list of lines or a block of text"},
		},
		{
			name:     "not a mapping",
			book:     "build: yes\n",
			want:     Settings{Title: "My Novel", Language: "en", Paper: "letter"},
			problems: []string{"quire.yaml: line 1: build: must be a mapping of author, surname, contact, language, identifier, paper, dashes, output"},
		},
		{
			name: "the book wins key by key; what it leaves empty, as quire init writes it, is the writer's",
			book: "build:\n  author: \"\"\n  contact:\n  paper: a4\n",
			user: "build:\n  author: Wren Halloway\n  surname: Halloway-Fenn\n  contact: [x]\n  paper: letter\n  dashes: spaced\n",
			want: Settings{Title: "My Novel", Author: "Wren Halloway", Surname: "Halloway-Fenn", Contact: []string{"x"}, Language: "en", Paper: "a4", Dashes: DashesSpaced},
		},
		{
			name: "a book's own author takes no surname of the writer's",
			book: "build:\n  author: Ann Pen\n",
			user: "build:\n  author: Wren Halloway\n  surname: Halloway-Fenn\n  contact: [x]\n",
			want: Settings{Title: "My Novel", Author: "Ann Pen", Contact: []string{"x"}, Language: "en", Paper: "letter"},
		},
		{
			name: "dashes: each convention, in any case",
			book: "build:\n  dashes: Pandoc\n",
			want: Settings{Title: "My Novel", Language: "en", Paper: "letter", Dashes: DashesPandoc},
		},
		{
			name:     "dashes: an unknown convention is located",
			book:     "build:\n  dashes: long\n",
			want:     Settings{Title: "My Novel", Language: "en", Paper: "letter"},
			problems: []string{`quire.yaml: line 2: build: dashes: "long" is none of em (-- and --- are em dashes, the default), pandoc (-- en dash, --- em dash) and spaced (-- a spaced en dash)`},
		},
		{
			name: "output: relative to the book in quire.yaml",
			book: "build:\n  output: out/drafts\n",
			want: Settings{Title: "My Novel", Language: "en", Paper: "letter", Output: Output{Dir: filepath.FromSlash("/books/my-novel/out/drafts"), Written: "out/drafts", Book: true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &settings.Loaded{Book: settings.Parse("quire.yaml", []byte(tt.book)), User: &settings.File{}}
			if tt.user != "" {
				l.User = settings.Parse("/home/w/.config/quire/config.yaml", []byte(tt.user))
			}
			got, problems := ReadSettings(l, filepath.FromSlash("/books/my-novel"))
			got.file, got.node = nil, nil
			if tt.want.Dashes == "" {
				tt.want.Dashes = DashesEm
			}
			assert.Equal(t, tt.want, got)
			var msgs []string
			for _, p := range problems {
				msgs = append(msgs, p.Error())
			}
			assert.Equal(t, tt.problems, msgs)
		})
	}
}

func TestSettingsMissing(t *testing.T) {
	l := &settings.Loaded{Book: settings.Parse("quire.yaml", []byte("title: T\nbuild:\n  surname: X\n")), User: &settings.File{}}
	s, _ := ReadSettings(l, "/b")
	warnings := s.Missing(Manuscript)
	if assert.Len(t, warnings, 2) {
		assert.Equal(t, 3, warnings[0].Line, "at the build: section")
		assert.Contains(t, warnings[0].Error(), `build: author is not set, so the manuscript shows "Your Name"`)
		assert.Contains(t, warnings[1].Error(), "build: contact is not set")
	}
	assert.Equal(t, PlaceholderAuthor, s.Author)
	assert.Equal(t, PlaceholderContact(), s.Contact)
	assert.Equal(t, "Name", s.HeaderName(), "the placeholder's surname, not the book's own for another author")

	r, _ := ReadSettings(l, "/b")
	assert.Empty(t, r.Missing(Reader), "a reader's book needs no contact block")
	assert.Empty(t, r.Author)

	none, _ := ReadSettings(&settings.Loaded{Book: settings.Parse("quire.yaml", nil), User: &settings.File{}}, "/b")
	warnings = none.Missing(Manuscript)
	if assert.Len(t, warnings, 2) {
		assert.Contains(t, warnings[0].Error(), "quire.yaml: build: author is not set")
		assert.Contains(t, warnings[0].Error(), "in quire.yaml's build: section (or in your config.yaml, for every book)")
	}
	assert.Equal(t, "Halloway", Settings{Author: "Wren  Halloway "}.HeaderName())
	assert.Equal(t, "X", Settings{Author: "Wren Halloway", Surname: "X"}.HeaderName())
}
