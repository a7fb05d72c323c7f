package codex

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const maraID = "codex/characters/mara-vell.md"

// mustParse parses src as an entry and fails the test when it is not one.
func mustParse(t *testing.T, id, src string, folder Type) *Entry {
	t.Helper()
	e, problems := Parse(id, []byte(src), folder)
	require.NotNil(t, e, "not parsed as an entry; problems: %v", problems)
	assert.Equal(t, problems, e.Problems, "Parse must return the problems it stores on the entry")
	return e
}

// problemCodes lists the codes of problems, in order.
func problemCodes(problems []Problem) []string {
	var codes []string
	for _, p := range problems {
		codes = append(codes, p.Code)
	}
	return codes
}

// problemWith returns the single problem with code, failing otherwise.
func problemWith(t *testing.T, problems []Problem, code string) Problem {
	t.Helper()
	var found []Problem
	for _, p := range problems {
		if p.Code == code {
			found = append(found, p)
		}
	}
	require.Len(t, found, 1, "want exactly one %q problem in %v", code, problems)
	return found[0]
}

// sub is the part of src a range covers.
func sub(src string, r Range) string { return src[r.Start:r.End] }

func TestParseType(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		folder   Type
		want     Type
		notEntry bool
		codes    []string
	}{
		{name: "front matter type", src: "---\ntype: character\n---\n", want: TypeCharacter},
		{name: "plural front matter type", src: "---\ntype: Characters\n---\n", want: TypeCharacter},
		{name: "upper case", src: "---\ntype: LOCATION\n---\n", want: TypeLocation},
		{name: "synonym", src: "---\ntype: places\n---\n", want: TypeLocation},
		{name: "british spelling", src: "---\ntype: organisation\n---\n", want: TypeOrganization},
		{name: "padded", src: "---\ntype: '  item  '\n---\n", want: TypeItem},
		{name: "folder type", src: "---\nname: X\n---\n", folder: TypeLocation, want: TypeLocation},
		{name: "folder type without front matter", src: "# X\n", folder: TypeEvent, want: TypeEvent},
		{name: "front matter beats folder", src: "---\ntype: item\n---\n", folder: TypeCharacter, want: TypeItem},
		{name: "null type falls back to folder", src: "---\ntype: ~\n---\n", folder: TypeStyle, want: TypeStyle},
		{name: "list type falls back to folder", src: "---\ntype: [a, b]\n---\n", folder: TypeStyle, want: TypeStyle, codes: []string{CodeFieldType}},
		{name: "custom type kept without warning", src: "---\ntype: Spell\n---\n", want: "spell"},
		{name: "typo kept with warning", src: "---\ntype: charcter\n---\n", want: "charcter", codes: []string{CodeUnknownType}},
		{name: "plural typo", src: "---\ntype: locatons\n---\n", want: "locatons", codes: []string{CodeUnknownType}},
		{name: "chapter is manuscript", src: "---\ntype: chapter\n---\n", notEntry: true},
		{name: "manuscript type beats folder", src: "---\ntype: Scene\n---\n", folder: TypeCharacter, notEntry: true},
		{name: "no front matter, no folder", src: "# Mara\n\nProse.\n", notEntry: true},
		{name: "front matter without type, no folder", src: "---\nname: Mara\n---\n", notEntry: true},
		{name: "fence-like first line is not front matter", src: "----\ntype: character\n----\n", notEntry: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, problems := Parse(maraID, []byte(tt.src), tt.folder)
			if tt.notEntry {
				assert.Nil(t, e)
				assert.Empty(t, problems)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, tt.want, e.Type)
			assert.Equal(t, tt.codes, problemCodes(problems))
		})
	}
}

func TestParseUnknownTypeSuggestion(t *testing.T) {
	src := "---\nname: Mara\ntype: charcter\n---\n"
	e := mustParse(t, maraID, src, "")
	p := problemWith(t, e.Problems, CodeUnknownType)
	assert.Contains(t, p.Message, `did you mean "character"`)
	assert.Equal(t, "charcter", sub(src, p.Range))
	assert.Equal(t, SeverityWarning, p.Severity)
	assert.Equal(t, maraID, p.Path)
}

func TestParseNameAndTitle(t *testing.T) {
	tests := []struct {
		name      string
		id        string
		src       string
		wantName  string
		wantTitle string
		wantStem  string
	}{
		{name: "name and title", src: "---\nname: Mara Vell\ntitle: The Harbor Witch\n---\n# Heading\n",
			wantName: "Mara Vell", wantTitle: "The Harbor Witch"},
		{name: "title only", src: "---\ntitle: The Harbor Witch\n---\n# Heading\n",
			wantName: "The Harbor Witch", wantTitle: "The Harbor Witch"},
		{name: "name over heading", src: "---\nname: Mara Vell\n---\n# Heading\n",
			wantName: "Mara Vell", wantTitle: "Heading"},
		{name: "first level-1 heading", src: "Intro.\n\n## Sub\n\n# Mara *Vell*\n\n# Later\n",
			wantName: "Mara Vell", wantTitle: "Mara Vell"},
		{name: "setext heading", src: "Mara Vell\n=========\n", wantName: "Mara Vell", wantTitle: "Mara Vell"},
		{name: "humanized stem", src: "## Only a subheading\n", wantName: "Mara Vell", wantTitle: "Mara Vell"},
		{name: "empty name falls through", src: "---\nname: \"\"\n---\n", wantName: "Mara Vell", wantTitle: "Mara Vell"},
		{name: "folder-shaped entry", id: "codex/characters/ilse-dorn/index.md", src: "---\ntype: character\n---\n",
			wantName: "Ilse Dorn", wantTitle: "Ilse Dorn", wantStem: "ilse-dorn"},
		{name: "folder-shaped, upper-case index", id: "codex/characters/ilse-dorn/Index.MD", src: "",
			wantName: "Ilse Dorn", wantTitle: "Ilse Dorn", wantStem: "ilse-dorn"},
		{name: "index at the root is a stem", id: "index.md", src: "---\ntype: concept\n---\n",
			wantName: "Index", wantTitle: "Index", wantStem: "index"},
		{name: "underscores and dots", id: "codex/locations/old_harbor.v2.md", src: "",
			wantName: "Old Harbor V2", wantTitle: "Old Harbor V2", wantStem: "old_harbor.v2"},
		{name: "non-ASCII stem", id: "codex/locations/ølby.md", src: "",
			wantName: "Ølby", wantTitle: "Ølby", wantStem: "ølby"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := tt.id
			if id == "" {
				id = maraID
			}
			e := mustParse(t, id, tt.src, TypeCharacter)
			assert.Equal(t, id, e.ID)
			assert.Equal(t, tt.wantName, e.Name)
			assert.Equal(t, tt.wantTitle, e.Title)
			if tt.wantStem == "" {
				tt.wantStem = "mara-vell"
			}
			assert.Equal(t, tt.wantStem, e.Stem)
		})
	}
}

func TestParseNameRange(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "plain", src: "---\nname: Mara Vell\n---\n", want: "Mara Vell"},
		{name: "extra spaces and comment", src: "---\nname:    Mara Vell   # the witch\n---\n", want: "Mara Vell"},
		{name: "double-quoted keeps quotes", src: "---\nname: \"Mara Vell\"\n---\n", want: `"Mara Vell"`},
		{name: "single-quoted keeps quotes", src: "---\nname: 'Mara Vell'\n---\n", want: `'Mara Vell'`},
		{name: "double-quoted with escapes", src: "---\nname: \"Mara \\\"M\\\" Vell\" # note\n---\n", want: `"Mara \"M\" Vell"`},
		{name: "single-quoted with a doubled quote", src: "---\nname: 'Mara''s Boat'\n---\n", want: `'Mara''s Boat'`},
		{name: "unicode escape", src: "---\nname: \"S\\u00e9verine\"\n---\n", want: `"S\u00e9verine"`},
		{name: "non-ASCII before and in value", src: "---\nsummary: Ølby’s own\nname: Séverine Ølby\n---\n", want: "Séverine Ølby"},
		{name: "after a BOM", src: "\xEF\xBB\xBF---\nname: Mara\n---\n", want: "Mara"},
		{name: "CRLF", src: "---\r\ntype: character\r\nname: Mara\r\n---\r\n", want: "Mara"},
		{name: "recovered from broken YAML", src: "---\nbad: [unclosed\nname: Mara\n---\n", want: "Mara"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			assert.Equal(t, tt.want, sub(tt.src, e.NameRange))
		})
	}

	t.Run("no range when the name is not in front matter", func(t *testing.T) {
		e := mustParse(t, maraID, "---\ntitle: T\n---\n# Heading\n", TypeCharacter)
		assert.Equal(t, Range{}, e.NameRange)
	})
}

func TestParseAliases(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
		// wantText is what each alias range covers, when not the alias itself.
		wantText []string
		codes    []string
	}{
		{name: "flow list", src: "---\naliases: [Mara, the Harbor Witch]\n---\n", want: []string{"Mara", "the Harbor Witch"}},
		{name: "block list", src: "---\naliases:\n  - Mara\n  - 'the Witch'\n---\n",
			want: []string{"Mara", "the Witch"}, wantText: []string{"Mara", "'the Witch'"}},
		{name: "single scalar", src: "---\naliases: Mara\n---\n", want: []string{"Mara"}},
		{name: "singular key", src: "---\nalias: Mara\n---\n", want: []string{"Mara"}},
		{name: "commas are not split", src: "---\naliases: Vell, Mara\n---\n", want: []string{"Vell, Mara"}},
		{name: "non-ASCII", src: "---\naliases: [Séverine, Ølby, straße]\n---\n", want: []string{"Séverine", "Ølby", "straße"}},
		{name: "quoted with escapes", src: "---\naliases: [\"the \\\"Witch\\\"\", 'Mara''s', Vell]\n---\n",
			want: []string{`the "Witch"`, "Mara's", "Vell"}, wantText: []string{`"the \"Witch\""`, `'Mara''s'`, "Vell"}},
		{name: "after invalid bytes", src: "---\naliases: [\xff\xfe, Mara]\n---\n", want: []string{"\uFFFD\uFFFD", "Mara"},
			wantText: []string{"\xff\xfe", "Mara"}, codes: []string{CodeEncoding}},
		{name: "synonyms do not overwrite", src: "---\naliases: [Mara]\nalias: Vell\n---\n", want: []string{"Mara"}, codes: []string{CodeDuplicateKey}},
		{name: "empty items dropped", src: "---\naliases: [Mara, '', ~]\n---\n", want: []string{"Mara"}},
		{name: "null", src: "---\naliases:\n---\n", want: nil},
		{name: "nested list item reported", src: "---\naliases: [Mara, [x]]\n---\n", want: []string{"Mara"}, codes: []string{CodeFieldType}},
		{name: "mapping reported", src: "---\naliases: {a: b}\n---\n", want: nil, codes: []string{CodeFieldType}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			require.Equal(t, tt.want, e.Aliases)
			assert.Equal(t, tt.codes, problemCodes(e.Problems))
			require.Len(t, e.AliasRanges, len(e.Aliases))
			want := tt.wantText
			if want == nil {
				want = tt.want
			}
			for i, r := range e.AliasRanges {
				assert.Equal(t, want[i], sub(tt.src, r))
			}
		})
	}
}

func TestParseTagsLockedExclude(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		wantTags    []string
		wantLocked  []string
		wantExclude []string
	}{
		{name: "tag list", src: "---\ntags: [protagonist, smuggler]\n---\n", wantTags: []string{"protagonist", "smuggler"}},
		{name: "comma string", src: "---\ntags: protagonist,  smuggler ,\n---\n", wantTags: []string{"protagonist", "smuggler"}},
		{name: "singular tag", src: "---\ntag: exile\n---\n", wantTags: []string{"exile"}},
		{name: "numbers become text", src: "---\ntags: [1999, true]\n---\n", wantTags: []string{"1999", "true"}},
		{name: "locked list", src: "---\nrole: x\nlocked: [role]\n---\n", wantLocked: []string{"role"}},
		{name: "locked string", src: "---\nrole: x\nhair: y\nlocked: role, hair\n---\n", wantLocked: []string{"role", "hair"}},
		{name: "exclude keeps commas", src: "---\nexclude: [Mara's boat, the Vell, estate]\n---\n", wantExclude: []string{"Mara's boat", "the Vell", "estate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			assert.Equal(t, tt.wantTags, e.Tags)
			assert.Equal(t, tt.wantLocked, e.Locked)
			assert.Equal(t, tt.wantExclude, e.Exclude)
			assert.Empty(t, e.Problems)
		})
	}
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		src     string
		want    Status
		problem string // text the status problem points at
	}{
		{src: "---\nname: x\n---\n", want: StatusConfirmed},
		{src: "---\nstatus: confirmed\n---\n", want: StatusConfirmed},
		{src: "---\nstatus: Tentative\n---\n", want: StatusTentative},
		{src: "---\nstatus: tentative\n---\n", want: StatusTentative},
		{src: "---\nstatus: maybe\n---\n", want: StatusConfirmed, problem: "maybe"},
		{src: "---\nstatus: dead\n---\n", want: StatusConfirmed},
		{src: "---\nstatus: 'draft'\n---\n", want: StatusConfirmed, problem: "'draft'"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			assert.Equal(t, tt.want, e.Status)
			if tt.problem == "" {
				assert.Empty(t, e.Problems)
				return
			}
			p := problemWith(t, e.Problems, CodeStatus)
			assert.Equal(t, SeverityWarning, p.Severity)
			assert.Equal(t, tt.problem, sub(tt.src, p.Range))
		})
	}
}

func TestParseLockedFieldNotSet(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// unset names the locked fields that must be reported; at is the
		// text each problem points at, when it is not the field itself.
		unset, at []string
	}{
		{name: "all set", src: "---\nname: Mara\nrole: x\nlocked: [role, name]\n---\n"},
		{name: "case-insensitive", src: "---\nRole: x\nlocked: [role]\n---\n"},
		{name: "built-in fields count", src: "---\naliases: [M]\nsummary: s\nlocked: [aliases, summary]\n---\n"},
		{name: "one missing", src: "---\nrole: x\nlocked: [role, hair]\n---\n", unset: []string{"hair"}},
		{name: "two missing", src: "---\nlocked:\n  - hair\n  - eyes\n---\n", unset: []string{"hair", "eyes"}},
		{name: "one missing from a comma string", src: "---\nrole: x\nlocked: role,  hair \n---\n", unset: []string{"hair"}},
		{name: "quoted comma string points at the value", src: "---\nlocked: \"hair, eyes\"\n---\n",
			unset: []string{"hair", "eyes"}, at: []string{`"hair, eyes"`, `"hair, eyes"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			var names, at []string
			for _, p := range e.Problems {
				require.Equal(t, CodeLockedField, p.Code, p.Message)
				assert.Equal(t, SeverityWarning, p.Severity)
				name := p.Message[strings.Index(p.Message, `"`)+1:]
				names = append(names, name[:strings.Index(name, `"`)])
				at = append(at, sub(tt.src, p.Range))
			}
			assert.Equal(t, tt.unset, names)
			if tt.at == nil {
				tt.at = tt.unset
			}
			assert.Equal(t, tt.at, at)
		})
	}
}

func TestParseCustomFields(t *testing.T) {
	src := `---
name: Mara
role: Protagonist
age: 34
height: 1.78
born: 1999-04-01
married: false
spouse: ~
ships: [Gull, Heron]
family: {mother: Ada, siblings: [Ilse]}
big: 123456789012345678901234567890
odd: .inf
Description2: text
---
`
	e := mustParse(t, maraID, src, TypeCharacter)
	var keys []string
	for _, f := range e.Custom {
		keys = append(keys, f.Key)
	}
	assert.Equal(t, []string{"role", "age", "height", "born", "married", "spouse", "ships", "family", "big", "odd", "Description2"}, keys,
		"custom fields keep the writer's order and leave built-in keys out")

	tests := []struct {
		key  string
		want any
	}{
		{"role", "Protagonist"},
		{"age", 34.0},
		{"height", 1.78},
		{"born", "1999-04-01"},
		{"married", false},
		{"spouse", nil},
		{"ships", []any{"Gull", "Heron"}},
		{"family", map[string]any{"mother": "Ada", "siblings": []any{"Ilse"}}},
		{"big", 1.2345678901234568e29},
		{"odd", ".inf"},
		{"DESCRIPTION2", "text"},
	}
	for _, tt := range tests {
		got, ok := e.Custom.Get(tt.key)
		assert.True(t, ok, tt.key)
		assert.Equal(t, tt.want, got, tt.key)
	}
	_, ok := e.Custom.Get("missing")
	assert.False(t, ok)

	// The values are the shapes encoding/json produces, so a JSON round
	// trip gives them back unchanged.
	data, err := json.Marshal(e.Custom)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(data, &back))
	for _, f := range e.Custom {
		assert.Equal(t, f.Value, back[f.Key], f.Key)
	}
}

func TestParseMentions(t *testing.T) {
	tests := []struct {
		src   string
		want  bool
		codes []string
	}{
		{src: "---\nname: x\n---\n", want: true},
		{src: "---\nmentions: false\n---\n", want: false},
		{src: "---\nmentions: no\n---\n", want: false},
		{src: "---\nmentions: sometimes\n---\n", want: true, codes: []string{CodeFieldType}},
		{src: "---\nmentions: true\n---\n", want: true},
		{src: "---\nmentions: [a]\n---\n", want: true, codes: []string{CodeFieldType}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			assert.Equal(t, tt.want, e.Mentions)
			assert.Equal(t, tt.codes, problemCodes(e.Problems))
		})
	}
}

func TestParseSummary(t *testing.T) {
	long := strings.Repeat("salt ", 120)
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "front matter wins", src: "---\nsummary: Smuggler.\n---\nFirst paragraph.\n", want: "Smuggler."},
		{name: "description is a synonym", src: "---\ndescription: Smuggler.\n---\nFirst paragraph.\n", want: "Smuggler."},
		{name: "first paragraph", src: "# Mara\n\nFirst *para*\ngraph.\n\nSecond.\n", want: "First para graph."},
		{name: "links as label or target", src: "Sister of [[Ilse Dorn|Ilse]], from [[Old Harbor#Docks]].\n",
			want: "Sister of Ilse, from Old Harbor."},
		{name: "markdown links as text", src: "See [the map](map.png) and `code`.\n", want: "See the map and code."},
		{name: "no paragraph", src: "# Mara\n", want: ""},
		{name: "paragraph inside code is not a summary", src: "```\ncode\n```\n\nReal.\n", want: "Real."},
		{name: "link definitions are not a summary", src: "[map]: https://example.com/map\n[key]: /k\n\nReal prose.\n", want: "Real prose."},
		{name: "reference links as text", src: "See [the map][map] and [key].\n\n[map]: https://example.com\n[key]: /k\n", want: "See the map and key."},
		{name: "quote markers are not text", src: "> Quoted *text*\n> goes on\n", want: "Quoted text goes on"},
		{name: "paragraph in a loose list", src: "1. Intro *bold*\n\n2. Next\n", want: "Intro bold"},
		{name: "a line that looks like a list is text", src: "Born *in*\n1999. Later\n", want: "Born in 1999. Later"},
		{name: "hard line break", src: "One\\\ntwo  \nthree\n", want: "One two three"},
		{name: "hashes in prose are kept", src: "Tagged *one* #two\n", want: "Tagged one #two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			assert.Equal(t, tt.want, e.Summary)
		})
	}

	t.Run("long paragraph cut at a word", func(t *testing.T) {
		e := mustParse(t, maraID, long, TypeCharacter)
		assert.LessOrEqual(t, len(e.Summary), maxSummary+len("…"))
		assert.Greater(t, len(e.Summary), maxSummary/2)
		require.True(t, strings.HasSuffix(e.Summary, "…"), e.Summary)
		body := strings.TrimSuffix(e.Summary, "…")
		assert.True(t, strings.HasPrefix(long, body+" "), "cut inside a word: %q", body)
	})

	t.Run("long word cut at a character", func(t *testing.T) {
		src := strings.Repeat("é", 300)
		e := mustParse(t, maraID, src, TypeCharacter)
		assert.True(t, utf8.ValidString(e.Summary))
		assert.True(t, strings.HasSuffix(e.Summary, "…"))
		assert.LessOrEqual(t, len(e.Summary), maxSummary+len("…"))
	})
}

func TestParseSections(t *testing.T) {
	src := "---\nname: Mara\n---\n# Mara Vell\n\nIntro.\n\n## Appearance\n\nTall.\n\n### Scars\n\nOne.\n\n## History\n\n```\n# not a heading\n```\n\nOld.\n\nVoice\n-----\n\nLow.\n"
	e := mustParse(t, maraID, src, TypeCharacter)

	type sec struct {
		heading string
		level   int
		line    string
		body    string // the section text, from heading to end
	}
	var got []sec
	for _, s := range e.Sections {
		got = append(got, sec{s.Heading, s.Level, sub(src, s.HeadingRange), sub(src, s.Range)})
	}
	all := src[strings.Index(src, "# Mara Vell"):]
	assert.Equal(t, []sec{
		{"Mara Vell", 1, "# Mara Vell", all},
		{"Appearance", 2, "## Appearance", "## Appearance\n\nTall.\n\n### Scars\n\nOne.\n\n"},
		{"Scars", 3, "### Scars", "### Scars\n\nOne.\n\n"},
		{"History", 2, "## History", "## History\n\n```\n# not a heading\n```\n\nOld.\n\n"},
		{"Voice", 2, "Voice\n-----", "Voice\n-----\n\nLow.\n"},
	}, got)

	s, ok := e.Section("  APPEARANCE ")
	require.True(t, ok)
	assert.Equal(t, 2, s.Level)
	_, ok = e.Section("not a heading")
	assert.False(t, ok)
	assert.Equal(t, src[strings.Index(src, "# Mara"):], e.BodyText())
}

func TestParseSectionEdgeCases(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		want  []string // heading lines
		level []int
	}{
		{name: "empty heading is no section", src: "##\n\n## Real\n", want: []string{"## Real"}, level: []int{2}},
		{name: "closing hashes", src: "## Title ##\n", want: []string{"## Title ##"}, level: []int{2}},
		{name: "CRLF heading line has no CR", src: "# A\r\n\r\ntext\r\n\r\nB\r\n===\r\n", want: []string{"# A", "B\r\n==="}, level: []int{1, 1}},
		{name: "heading in blockquote", src: "> ## Quoted\n", want: []string{"> ## Quoted"}, level: []int{2}},
		{name: "indented code is not a heading", src: "    # code\n", want: nil},
		{name: "tilde fence", src: "~~~\n# no\n~~~\n# Yes\n", want: []string{"# Yes"}, level: []int{1}},
		{name: "multi-line setext", src: "Mara\nVell\n===\n", want: []string{"Mara\nVell\n==="}, level: []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, maraID, tt.src, TypeCharacter)
			var lines []string
			var levels []int
			for _, s := range e.Sections {
				lines = append(lines, sub(tt.src, s.HeadingRange))
				levels = append(levels, s.Level)
			}
			if n := len(e.Sections); n > 0 {
				assert.Equal(t, len(tt.src), e.Sections[n-1].Range.End, "the last section runs to the end")
			}
			assert.Equal(t, tt.want, lines)
			assert.Equal(t, tt.level, levels)
		})
	}
}

func TestParseLinks(t *testing.T) {
	src := "---\nsummary: not a link [[In Front Matter]]\n---\n" +
		"Sister of [[Ilse Dorn|Ilse]], see [[Old Harbor#Docks]].\n\n" +
		"`[[Inline Code]]` and \\[[Escaped]].\n\n" +
		"```\n[[Fenced]]\n```\n" +
		"After the fence: [[Gull]].\n"
	e := mustParse(t, maraID, src, TypeCharacter)

	type link struct{ target, label, whole, targetText string }
	var got []link
	for _, l := range e.Links {
		got = append(got, link{l.Target, l.Label, sub(src, l.Range), sub(src, l.TargetRange)})
	}
	assert.Equal(t, []link{
		{"Ilse Dorn", "Ilse", "[[Ilse Dorn|Ilse]]", "Ilse Dorn"},
		{"Old Harbor#Docks", "", "[[Old Harbor#Docks]]", "Old Harbor#Docks"},
		{"Gull", "", "[[Gull]]", "Gull"},
	}, got)
	assert.Equal(t, "Old Harbor", e.Links[1].LinkName())
	assert.Equal(t, "Docks", e.Links[1].LinkSection())
	assert.Equal(t, "", e.Links[0].LinkSection())
}

// TestParseBrokenInput feeds files a writer can produce by accident. Each
// must come back as data: a usable entry or a clear skip, with problems
// located inside the file.
func TestParseBrokenInput(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		folder Type
		// skipped means no entry, only problems.
		skipped  bool
		codes    []string
		wantName string
		wantType Type
		// at is the text the first problem points at ("" = don't check).
		at string
	}{
		{name: "invalid YAML keeps the other keys",
			src:   "---\nname: Mara Vell\ntype: character\nsummary: she said: \"hi\naliases: [Mara]\n---\n# Body\n",
			codes: []string{CodeYAML}, wantName: "Mara Vell", wantType: TypeCharacter, at: "summary: she said: \"hi"},
		{name: "invalid YAML with an unclosed flow list",
			src:   "---\ntype: location\nname: Old Harbor\ntags: [a, b\n---\n",
			codes: []string{CodeYAML}, wantName: "Old Harbor", wantType: TypeLocation, at: "tags: [a, b"},
		{name: "tab indentation",
			src:   "---\nname: Mara\naliases:\n\t- M\ntype: character\n---\n",
			codes: []string{CodeYAML}, wantName: "Mara", wantType: TypeCharacter, at: "\t- M"},
		{name: "unclosed quote",
			src:   "---\ntype: character\nname: Mara\nrole: \"smuggler\nhair: red\n---\n",
			codes: []string{CodeYAML}, wantName: "Mara", wantType: TypeCharacter, at: "role: \"smuggler"},
		{name: "undefined alias",
			src:   "---\ntype: character\nname: Mara\nrole: *nowhere\n---\n",
			codes: []string{CodeYAML}, wantName: "Mara", wantType: TypeCharacter, at: "role: *nowhere"},
		{name: "bad indentation of a nested list",
			src:   "---\ntype: character\nname: Mara\nships:\n  - Gull\n - Heron\n---\n",
			codes: []string{CodeYAML}, wantName: "Mara", wantType: TypeCharacter},
		{name: "tab after colon is fine",
			src:      "---\nname:\tMara\ntype:\tcharacter\n---\n",
			wantName: "Mara", wantType: TypeCharacter},
		{name: "unclosed front matter up to blank line",
			src:   "---\nname: Mara\ntype: character\n\nBody text.\n",
			codes: []string{CodeUnclosed}, wantName: "Mara", wantType: TypeCharacter, at: "---"},
		{name: "unclosed front matter up to heading",
			src:   "---\ntype: item\nname: Lamp\n# Lamp notes\n",
			codes: []string{CodeUnclosed}, wantName: "Lamp", wantType: TypeItem, at: "---"},
		{name: "duplicate keys: first wins",
			src:   "---\ntype: character\nname: Mara\nName: Other\n---\n",
			codes: []string{CodeDuplicateKey}, wantName: "Mara", wantType: TypeCharacter, at: "Name"},
		{name: "non-UTF-8 bytes",
			src:   "---\ntype: character\nname: Mara\n---\nCaf\xe9 \xff.\n",
			codes: []string{CodeEncoding}, wantName: "Mara", wantType: TypeCharacter, at: "\xe9"},
		{name: "non-UTF-8 in front matter",
			src:   "---\ntype: character\nname: Caf\xe9\n---\n",
			codes: []string{CodeEncoding}, wantName: "Caf\uFFFD", wantType: TypeCharacter, at: "\xe9"},
		{name: "empty file in a type folder", src: "", folder: TypeCharacter,
			codes: []string{CodeEmpty}, wantName: "Mara Vell", wantType: TypeCharacter},
		{name: "whitespace-only file", src: " \n\t\r\n  ", folder: TypeCharacter,
			codes: []string{CodeEmpty}, wantName: "Mara Vell", wantType: TypeCharacter},
		{name: "byte order mark only", src: "\xEF\xBB\xBF\n", folder: TypeCharacter,
			codes: []string{CodeEmpty}, wantName: "Mara Vell", wantType: TypeCharacter},
		{name: "binary file", src: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", folder: TypeCharacter,
			skipped: true, codes: []string{CodeBinary}},
		{name: "binary file with front matter", src: "---\ntype: character\n---\n\x00", folder: TypeCharacter,
			skipped: true, codes: []string{CodeBinary}},
		{name: "CRLF line endings",
			src:      "---\r\ntype: character\r\nname: Mara\r\n---\r\n# Mara\r\n",
			wantName: "Mara", wantType: TypeCharacter},
		{name: "byte order mark",
			src:      "\xEF\xBB\xBF---\ntype: character\nname: Mara\n---\n",
			wantName: "Mara", wantType: TypeCharacter},
		{name: "front matter is a list", src: "---\n- a\n- b\n---\n# Heading\n", folder: TypeCharacter,
			codes: []string{CodeYAML}, wantName: "Heading", wantType: TypeCharacter, at: "- a\n- b\n"},
		{name: "front matter is a scalar", src: "---\njust words\n---\n", folder: TypeCharacter,
			codes: []string{CodeYAML}, wantName: "Mara Vell", wantType: TypeCharacter, at: "just words\n"},
		{name: "front matter with only comments", src: "---\n# fill in later\n---\n", folder: TypeCharacter,
			wantName: "Mara Vell", wantType: TypeCharacter},
		{name: "empty front matter", src: "---\n---\n", folder: TypeCharacter,
			wantName: "Mara Vell", wantType: TypeCharacter},
		{name: "opening fence only", src: "---", folder: TypeCharacter,
			codes: []string{CodeUnclosed}, wantName: "Mara Vell", wantType: TypeCharacter, at: "---"},
		{name: "mapping as a key", src: "---\n? [a, b]\n: c\nname: Mara\n---\n", folder: TypeCharacter,
			codes: []string{CodeFieldType}, wantName: "Mara", wantType: TypeCharacter},
		{name: "name is a list", src: "---\nname: [a, b]\n---\n", folder: TypeCharacter,
			codes: []string{CodeFieldType}, wantName: "Mara Vell", wantType: TypeCharacter, at: "[a, b]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, problems := Parse(maraID, []byte(tt.src), tt.folder)
			assert.Equal(t, tt.codes, problemCodes(problems))
			for _, p := range problems {
				assert.Equal(t, maraID, p.Path)
				assert.NotEmpty(t, p.Message)
				require.True(t, 0 <= p.Range.Start && p.Range.Start <= p.Range.End && p.Range.End <= len(tt.src),
					"problem range %+v outside the file", p.Range)
			}
			if tt.at != "" {
				require.NotEmpty(t, problems)
				assert.Equal(t, tt.at, sub(tt.src, problems[0].Range))
			}
			if tt.skipped {
				assert.Nil(t, e)
				return
			}
			require.NotNil(t, e)
			assert.Equal(t, tt.wantName, e.Name)
			assert.Equal(t, tt.wantType, e.Type)
			assert.True(t, utf8.ValidString(e.Name) && utf8.ValidString(e.Summary) && utf8.ValidString(e.Title))
		})
	}
}

func TestParseDuplicateKeyMessageNamesFirstLine(t *testing.T) {
	src := "---\ntype: character\nrole: a\naliases: [x]\nrole: b\n---\n"
	e := mustParse(t, maraID, src, "")
	p := problemWith(t, e.Problems, CodeDuplicateKey)
	assert.Contains(t, p.Message, "line 3", "role is first set on the file's third line")
	assert.Equal(t, "role", sub(src, p.Range))
	v, _ := e.Custom.Get("role")
	assert.Equal(t, "a", v)
}

func TestParseSynonymKeys(t *testing.T) {
	src := "---\ntype: character\nsummary: First.\ndescription: Second.\n---\n"
	e := mustParse(t, maraID, src, "")
	assert.Equal(t, "First.", e.Summary)
	p := problemWith(t, e.Problems, CodeDuplicateKey)
	assert.Equal(t, "description", sub(src, p.Range))
	assert.Contains(t, p.Message, `"summary"`)
	assert.Contains(t, p.Message, "line 3")
}

func TestParseYAMLErrorPointsAtItsLine(t *testing.T) {
	src := "---\ntype: character\nname: Mara\nbad: x: y\nrole: z\n---\n"
	e := mustParse(t, maraID, src, "")
	p := problemWith(t, e.Problems, CodeYAML)
	assert.Equal(t, SeverityError, p.Severity)
	assert.Equal(t, "bad: x: y", sub(src, p.Range))
	assert.NotContains(t, p.Message, "yaml: line", "the raw parser prefix is not for writers")
	v, ok := e.Custom.Get("role")
	assert.True(t, ok, "keys after the bad line are recovered")
	assert.Equal(t, "z", v)
}

func TestParseCRLF(t *testing.T) {
	src := "---\r\ntype: character\r\nname: Mara Vell\r\naliases: [Mara]\r\n---\r\n# Mara Vell\r\n\r\nSister of [[Ilse]].\r\n\r\n## Past\r\n\r\nOld.\r\n"
	e := mustParse(t, maraID, src, "")
	assert.Equal(t, "Mara Vell", e.Name)
	assert.Equal(t, "Mara Vell", sub(src, e.NameRange))
	require.Len(t, e.AliasRanges, 1)
	assert.Equal(t, "Mara", sub(src, e.AliasRanges[0]))
	assert.Equal(t, "Sister of Ilse.", e.Summary)
	require.Len(t, e.Sections, 2)
	assert.Equal(t, "# Mara Vell", sub(src, e.Sections[0].HeadingRange))
	assert.Equal(t, "## Past", sub(src, e.Sections[1].HeadingRange))
	assert.True(t, strings.HasPrefix(e.BodyText(), "# Mara Vell"))
	require.Len(t, e.Links, 1)
	assert.Equal(t, "[[Ilse]]", sub(src, e.Links[0].Range))
}

func TestParseTooLarge(t *testing.T) {
	// 50 MB, built here rather than committed.
	src := append([]byte("---\ntype: character\nname: Huge\n---\n"), bytes.Repeat([]byte("word "), 10<<20)...)
	start := time.Now()
	e, problems := Parse(maraID, src, TypeCharacter)
	assert.Less(t, time.Since(start), 5*time.Second, "an oversized file is rejected without being parsed")
	assert.Nil(t, e)
	require.Len(t, problems, 1)
	assert.Equal(t, CodeTooLarge, problems[0].Code)
	assert.Equal(t, SeverityError, problems[0].Severity)
	assert.Contains(t, problems[0].Message, "50.0 MB")
	assert.Equal(t, Range{}, problems[0].Range)

	t.Run("just under the limit is parsed", func(t *testing.T) {
		head := "---\ntype: character\nname: Big\n---\n"
		src := head + strings.Repeat("x", MaxEntryBytes-len(head))
		e := mustParse(t, maraID, src, "")
		assert.Equal(t, "Big", e.Name)
	})

	t.Run("prose outside type folders is not judged", func(t *testing.T) {
		e, problems := Parse("manuscript/huge.md", bytes.Repeat([]byte("a"), MaxEntryBytes+1), "")
		assert.Nil(t, e)
		assert.Empty(t, problems)
	})
}

// TestParseYAMLBombs checks that hostile YAML finishes fast and produces
// bounded values: alias expansion ("billion laughs"), self-reference, deep
// nesting.
func TestParseYAMLBombs(t *testing.T) {
	laughs := "---\ntype: character\nname: Bomb\n" +
		"a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" +
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
		"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n" +
		"h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n" +
		"i: [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n" +
		"aliases: *h\n---\n"
	tests := []struct {
		name    string
		src     string
		bounded bool // whether the node budget must have been hit
	}{
		{name: "billion laughs", src: laughs, bounded: true},
		{name: "self reference", src: "---\ntype: character\nname: Bomb\nloop: &x [a, *x]\n---\n"},
		{name: "deep flow nesting", src: "---\ntype: character\nname: Bomb\ndeep: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n---\n"},
		{name: "deep block nesting", src: "---\ntype: character\nname: Bomb\ndeep:\n" + deepBlock(300) + "---\n"},
		{name: "alias chain", src: "---\ntype: character\nname: &n Bomb\nother: *n\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			e := mustParse(t, maraID, tt.src, "")
			assert.Less(t, time.Since(start), 5*time.Second)
			assert.Equal(t, "Bomb", e.Name)
			data, err := json.Marshal(e.Custom)
			require.NoError(t, err)
			// Every node costs at least a byte or two of JSON, so the
			// size bounds the number of values kept.
			assert.Less(t, len(data), 40*maxYAMLNodes)
			for _, p := range e.Problems {
				require.True(t, p.Range.End <= len(tt.src) && p.Range.Start <= p.Range.End)
			}
			if tt.bounded {
				assert.Contains(t, problemCodes(e.Problems), CodeFieldType)
			}
		})
	}
}

func deepBlock(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i+1))
		b.WriteString("k:\n")
	}
	return b.String()
}

// TestParseBrokenYAMLIsLinear guards the per-key recovery: a broken block
// with many continuation lines once took time quadratic in its length.
func TestParseBrokenYAMLIsLinear(t *testing.T) {
	src := "---\ntype: character\nname: Slow\nbad: [\n" + strings.Repeat("  a,\n", 200_000) + "---\n"
	start := time.Now()
	e := mustParse(t, maraID, src, "")
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Equal(t, "Slow", e.Name)
	assert.Contains(t, problemCodes(e.Problems), CodeYAML)
}

// TestParseHostileInputIsFast guards against inputs that made a parse take
// time quadratic in their size: deep nesting, runs of unclosed links,
// link definitions, long flow lists, long broken front matter. At 512 KB
// each of them once took minutes; linear, they take milliseconds (a few
// seconds under -race). The bound is a minute so a loaded machine running
// every package at once cannot trip it, while a quadratic parse still does.
func TestParseHostileInputIsFast(t *testing.T) {
	const n = 512 << 10
	tests := map[string]string{
		"nested blockquotes":      strings.Repeat(">", n),
		"nested spaced quotes":    strings.Repeat("> ", n/2),
		"nested ordered lists":    strings.Repeat("1. ", n/3),
		"quotes and lists":        strings.Repeat("> - ", n/4),
		"unclosed links":          strings.Repeat("[](", n/3),
		"unclosed link targets":   strings.Repeat("[a](<b", n/6),
		"link definitions":        strings.Repeat("[a]: b\n", n/7),
		"mixed emphasis":          strings.Repeat("*a_b*c_d**e_f*g**h*i_j**", n/24),
		"headings with markup":    strings.Repeat("# *a*\n", n/6),
		"paragraphs without text": strings.Repeat("<span></span>\n\n", n/15),
		"long flow list":          "---\naliases: [" + strings.Repeat("Séverine,", n/10) + "]\n---\n",
		"long comma list":         "---\nlocked: " + strings.Repeat("a,", n/2) + "\n---\n",
		"broken YAML, many keys":  "---\nx: [\n" + strings.Repeat("k: v\n", n/5) + "---\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			e, _ := Parse(maraID, []byte(src), TypeCharacter)
			assert.Less(t, time.Since(start), time.Minute)
			require.NotNil(t, e)
		})
	}
}

func TestParseSoul(t *testing.T) {
	src := "---\nname: ignored\n---\n# Fear\n\nOf deep water; see [[Mara Vell|Mara]].\n\n`[[code]]`\n\n## Want\n\nHome.\n"
	s := ParseSoul("codex/characters/ilse-dorn/soul.md", []byte(src))
	assert.Equal(t, "codex/characters/ilse-dorn/soul.md", s.ID)
	assert.Equal(t, src, s.Source)
	assert.Empty(t, s.Problems)
	assert.Equal(t, "# Fear", sub(src, Range{s.Body.Start, s.Body.Start + len("# Fear")}), "front matter is skipped")
	require.Len(t, s.Sections, 2)
	assert.Equal(t, "Fear", s.Sections[0].Heading)
	assert.Equal(t, "Want", s.Sections[1].Heading)
	require.Len(t, s.Links, 1)
	assert.Equal(t, "Mara Vell", s.Links[0].Target)
	assert.Equal(t, "Mara", s.Links[0].Label)
	assert.Equal(t, "[[Mara Vell|Mara]]", sub(src, s.Links[0].Range))

	tests := []struct {
		name string
		src  []byte
		code string
	}{
		{name: "binary", src: []byte("soul\x00"), code: CodeBinary},
		{name: "too large", src: bytes.Repeat([]byte("a"), MaxEntryBytes+1), code: CodeTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ParseSoul("soul.md", tt.src)
			assert.Equal(t, []string{tt.code}, problemCodes(s.Problems))
			assert.Empty(t, s.Source)
			assert.Empty(t, s.Sections)
		})
	}

	t.Run("no front matter", func(t *testing.T) {
		s := ParseSoul("soul.md", []byte("Plain [[Link]]."))
		assert.Equal(t, Range{0, 15}, s.Body)
		require.Len(t, s.Links, 1)
	})
}

// TestParseConcurrent runs parses side by side, as the store does, so the
// race detector sees the shared Markdown parsers in use from many
// goroutines.
func TestParseConcurrent(t *testing.T) {
	srcs := []string{
		"---\ntype: character\nname: Mara\n---\n# Mara *Vell*\n\nSee [the map][m] and [[Ilse]].\n\n[m]: /m\n",
		"# Old `Harbor`\n\n> quoted [[Gull]]\n\n```\n[[x]]\n```\n",
		"---\nname: Broken\nbad: [\n---\nText *here*.\n",
	}
	want := make([]*Entry, len(srcs))
	for i, src := range srcs {
		want[i] = mustParse(t, maraID, src, TypeCharacter)
	}
	done := make(chan []*Entry)
	for range 8 {
		go func() {
			var got []*Entry
			for range 50 {
				for _, src := range srcs {
					e, _ := Parse(maraID, []byte(src), TypeCharacter)
					got = append(got, e)
				}
			}
			done <- got
		}()
	}
	for range 8 {
		got := <-done
		for i, e := range got {
			require.Equal(t, want[i%len(srcs)], e)
		}
	}
}

// TestParseFixtures parses the files in testdata/parse and compares the
// result with the .json file beside each one, so a change in parsing
// shows up as a readable diff. Set QUIRE_UPDATE_FIXTURES=1 to rewrite them.
func TestParseFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "parse", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			e, problems := Parse("codex/characters/"+filepath.Base(p), src, TypeCharacter)
			got, err := json.MarshalIndent(struct {
				Entry    *Entry    `json:"entry"`
				Problems []Problem `json:"problems"`
			}{e, problems}, "", "  ")
			require.NoError(t, err)
			golden := strings.TrimSuffix(p, ".md") + ".json"
			if os.Getenv("QUIRE_UPDATE_FIXTURES") != "" {
				require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
		})
	}
}
