package settings

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseProblemsAreData(t *testing.T) {
	for _, tt := range []struct {
		name, text   string
		line, column int
		message      string
	}{
		{name: "not YAML", text: "title: T\nrules: [\n", line: 2, message: "quire.yaml: yaml: line 2:"},
		{name: "a key twice", text: "title: A\nprovider:\n  model: a\n  model: b\n", line: 4, column: 3, message: "quire.yaml: line 4: model is set twice (first on line 3); keep one"},
		{name: "actions are their owner's", text: "actions:\n  - id: a\n    id: b\n"},
		{name: "good", text: "title: T\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(Name, []byte(tt.text))
			if tt.message == "" {
				require.NoError(t, f.Err)
				return
			}
			require.Error(t, f.Err)
			assert.Contains(t, f.Err.Error(), tt.message)
			line, column := Position(f.Err)
			assert.Equal(t, tt.line, line)
			assert.Equal(t, tt.column, column)
		})
	}
}

func TestNotMapping(t *testing.T) {
	p := Parse(Name, []byte("- a\n- b\n")).NotMapping()
	require.NotNil(t, p)
	assert.Equal(t, 1, p.Line)
	assert.Equal(t, "quire.yaml: line 1: the file must be a mapping of settings", p.Error())
	assert.Nil(t, Parse(Name, []byte("title: T\n")).NotMapping())
	assert.Nil(t, Parse(Name, nil).NotMapping())
}

func TestLoadLayersTheBookOverTheUser(t *testing.T) {
	book := fstest.MapFS{Name: {Data: []byte("manuscript: draft/*.md\ncodex: []\n")}}
	user := func() ([]byte, string, error) {
		return []byte("manuscript: chapters/*.md\ncodex: lore/**/*.md\ntitle: Mine\n"), "/home/w/.config/quire/config.yaml", nil
	}
	l, err := Load(Sources{Book: book, User: user})
	require.NoError(t, err)
	assert.Equal(t, "draft/*.md", l.Layer("manuscript").Value, "the book wins")
	assert.Equal(t, "lore/**/*.md", l.Layer("codex").Value, "an empty list sets nothing")
	assert.Equal(t, "Mine", l.Layer("title").Value)
	assert.Nil(t, l.Layer("genre"))

	l, err = Load(Sources{Book: fstest.MapFS{}, User: func() ([]byte, string, error) { return nil, "x", errors.New("denied") }})
	require.NoError(t, err, "a user file that cannot be read is the caller's to report")
	assert.EqualError(t, l.UserErr, "denied")
	assert.Nil(t, l.Book.Text)

	_, err = Load(Sources{Book: fstest.MapFS{Name: {Mode: fs.ModeDir}}})
	require.Error(t, err)
}

func TestUnknownKeys(t *testing.T) {
	for _, tt := range []struct {
		name, file, text string
		want             []Problem
	}{
		{name: "none", file: Name, text: "title: T\nchecks: {after-death: off}\n"},
		{name: "the book's", file: Name, text: "title: T\ncolour: red\n",
			want: []Problem{{File: Name, Line: 2, Column: 1, Message: `line 2: unknown setting "colour"; quire ignores it`}}},
		{name: "the writer's own file names itself", file: "/home/w/.config/quire/config.yaml", text: "  tittle: T\n",
			want: []Problem{{File: "/home/w/.config/quire/config.yaml", Line: 1, Column: 3, Message: `line 1: unknown setting "tittle"; quire ignores it`}}},
		{name: "not a mapping", file: Name, text: "- a\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []Problem
			for _, p := range Parse(tt.file, []byte(tt.text)).UnknownKeys() {
				got = append(got, *p)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLayerOfNamesTheFile(t *testing.T) {
	l := &Loaded{Book: Parse(Name, []byte("traits: [scar]\nchecks:\n")), User: Parse("config.yaml", []byte("checks: {after-death: off}\n"))}
	f, n := l.LayerOf("traits")
	require.NotNil(t, n)
	assert.Equal(t, Name, f.Name)
	f, n = l.LayerOf("checks")
	require.NotNil(t, n, "a book's empty checks: leaves the user's")
	assert.Equal(t, "config.yaml", f.Name)
	assert.Equal(t, "config.yaml: line 1: x", f.At(n, "x").Error())
	f, n = l.LayerOf("rules")
	assert.Nil(t, f)
	assert.Nil(t, n)
}
