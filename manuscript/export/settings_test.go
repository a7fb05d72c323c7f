package export

import (
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
				Language: "en-GB", Identifier: "urn:isbn:9780000000000", Paper: "a4"},
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
			problems: []string{"quire.yaml: line 2: build: author must be a piece of text", `quire.yaml: line 3: build: paper is letter or a4, not "legal"`, `quire.yaml: line 4: build: has no setting "font"; it has author, surname, contact, language, identifier, paper`, "quire.yaml: line 5: build: contact must be a list of lines or a block of text"},
		},
		{
			name:     "not a mapping",
			book:     "build: yes\n",
			want:     Settings{Title: "My Novel", Language: "en", Paper: "letter"},
			problems: []string{"quire.yaml: line 1: build: must be a mapping of author, surname, contact, language, identifier and paper"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &settings.Loaded{Book: settings.Parse("quire.yaml", []byte(tt.book)), User: &settings.File{}}
			if tt.user != "" {
				l.User = settings.Parse("/home/w/.config/quire/config.yaml", []byte(tt.user))
			}
			got, problems := ReadSettings(l, "/books/my-novel")
			got.file, got.node = nil, nil
			assert.Equal(t, tt.want, got)
			var msgs []string
			for _, p := range problems {
				msgs = append(msgs, p.Error())
			}
			assert.Equal(t, tt.problems, msgs)
		})
	}
}

func TestSettingsCheck(t *testing.T) {
	l := &settings.Loaded{Book: settings.Parse("quire.yaml", []byte("title: T\nbuild:\n  surname: X\n")), User: &settings.File{}}
	s, _ := ReadSettings(l, "/b")
	problems := s.Check(Manuscript)
	if assert.Len(t, problems, 2) {
		assert.Equal(t, 3, problems[0].Line, "at the build: section")
		assert.Contains(t, problems[0].Error(), "build: author is not set")
		assert.Contains(t, problems[1].Error(), "build: contact is not set")
	}
	assert.Empty(t, s.Check(Reader), "a reader's book needs no contact block")

	none, _ := ReadSettings(&settings.Loaded{Book: settings.Parse("quire.yaml", nil), User: &settings.File{}}, "/b")
	problems = none.Check(Manuscript)
	if assert.Len(t, problems, 2) {
		assert.Contains(t, problems[0].Error(), "quire.yaml: no build: section")
	}
	assert.Equal(t, "Halloway", Settings{Author: "Wren  Halloway "}.HeaderName())
	assert.Equal(t, "X", Settings{Author: "Wren Halloway", Surname: "X"}.HeaderName())
}
