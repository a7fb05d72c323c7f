package editortest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// The slip book: a small book whose chapter 3 opens clean, and the lines a
// writer types into it, one continuity slip of each kind among look-alike
// decoys. Every editor test types the same lines through its editor's own
// input and checks that the writer then sees one diagnostic per slip, at
// its words, and none at a decoy: the "done when" in real editors.

// SlipChapter is the chapter the writer types into, relative to the book.
const SlipChapter = "manuscript/03-after.md"

// slipFiles is the book as it is on disk before the writer types.
var slipFiles = map[string]string{
	"quire.yaml": "title: The Slip Book\n",
	"codex/characters/severine-aubrac.md": "---\ntype: character\nname: Séverine Aubrac\naliases: [Séverine]\n" +
		"summary: Harbormistress of Skerry.\neyes: pale green\nhair: black\n---\n# Séverine Aubrac\n",
	"codex/characters/marek-dunn.md": "---\ntype: character\nname: Marek Dunn\naliases: [Marek]\n" +
		"summary: Ferryman.\neyes: brown\n---\n# Marek Dunn\n",
	"codex/characters/jory-vane.md": "---\ntype: character\nname: Jory Vane\naliases: [Jory]\n" +
		"summary: Apprentice lamplighter.\nprogressions:\n  - from: 2\n    status: dead\n    note: Drowned off the Gannet shoals.\n---\n# Jory Vane\n",
	"codex/characters/teodora-quill.md": "---\ntype: character\nname: Teodora Quill\naliases: [Teodora]\n" +
		"summary: Junior warden of the light.\n---\n# Teodora Quill\n",
	"codex/locations/skerry-vault.md": "---\ntype: location\nname: Skerry Vault\naliases: [the Vault]\n---\n# Skerry Vault\n",
	"codex/style/house-style.md": "---\ntype: style\nname: House Style\nrules:\n" +
		"  - {avoid: \"13th\", prefer: \"thirteenth\", note: \"Spell out ordinals in prose.\"}\n---\n# House Style\n",
	"manuscript/01-harbor.md": "---\ntitle: The Harbor\npov: Teodora Quill\nday: 1\n---\n# The Harbor\n\n" +
		"\u201cThe tide turns at the thirteenth stroke,\u201d said Jory, and laughed.\n",
	"manuscript/02-shoals.md": "---\ntitle: The Gannet Shoals\npov: Séverine\nday: 4\n---\n# The Gannet Shoals\n\n" +
		"Jory drowned that night, off the shoals. Séverine counted the boats. Séverine slept.\n\nSéverine woke, and Séverine rowed out.\n",
	SlipChapter: "---\ntitle: After the Shoals\n---\n# After the Shoals\n\nThe harbor was quiet.\n",
}

// Typed is one line the writer types, in order: inserted as a new line
// so that it becomes line Line (0-based) of the chapter. The lines come
// top to bottom, so every line above an insertion is already final.
type Typed struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Expected is a diagnostic the writer must see (a slip, with its Code)
// or must not see (a decoy, Code empty): at Words, the text its range
// covers, on line Line (0-based) of the typed chapter. The columns of
// Words's start and end are given in bytes, in Unicode characters and in
// UTF-16 units, so each editor compares in its own unit.
type Expected struct {
	Code     string `json:"code,omitempty"`
	Line     int    `json:"line"`
	Words    string `json:"words"`
	Why      string `json:"why"`
	ByteCol  int    `json:"byteCol"`
	ByteEnd  int    `json:"byteEnd"`
	CharCol  int    `json:"charCol"`
	CharEnd  int    `json:"charEnd"`
	UTF16Col int    `json:"utf16Col"`
	UTF16End int    `json:"utf16End"`
}

// Slips is the fixture an editor test hands its editor's script (as JSON).
type Slips struct {
	// Chapter is the absolute path of the chapter typed into.
	Chapter string `json:"chapter"`
	// Clean is the chapter's text before typing, Final after.
	Clean string  `json:"clean"`
	Final string  `json:"final"`
	Typed []Typed `json:"typed"`
	// Slips are the six diagnostics to see; Decoys the words that must
	// draw none.
	Slips  []Expected `json:"slips"`
	Decoys []Expected `json:"decoys"`
	// Fix is the quick fix the writer applies once every line is typed.
	Fix Fix `json:"fix"`
}

// Fix is a quick fix offered at one slip, applied through the editor's
// own code-action menu: the writer sees Offered among the menu's titles,
// picks Title, and the slip's line then reads After and the slip's
// diagnostic is gone, while the other slips stay.
type Fix struct {
	Code    string   `json:"code"`
	Line    int      `json:"line"`
	Offered []string `json:"offered"`
	Title   string   `json:"title"`
	After   string   `json:"after"`
}

// nameSpellingFix is the fix every editor applies: the misspelled name
// changed to the codex's spelling. The other two fixes are offered with it.
var nameSpellingFix = Fix{
	Code: "name-spelling", Line: 14,
	Offered: []string{"Change to Séverine", "Add 'Sevrine' as an alias of Séverine Aubrac", "Not a misspelling"},
	Title:   "Change to Séverine",
	After:   "Séverine watched the Dunns\u2019 ferry go.",
}

// typedLines are what the writer types into the clean chapter: the front
// matter first (a day earlier than chapter 2's, a pov that is a typo, a
// location by its alias), then prose. Curly quotes and dashes put byte
// columns apart from character ones, and the emoji character columns
// from UTF-16 ones, on the lines with slips.
var typedLines = []Typed{
	{Line: 2, Text: "day: 2"},
	{Line: 3, Text: "pov: Teodra Quill"},
	{Line: 4, Text: "location: the Vault"},
	{Line: 9, Text: "\u201cNot yet,\u201d she said \u2014 and Séverine\u2019s dark brown eyes were wet."},
	{Line: 10, Text: "Marek\u2019s brown eyes narrowed against the glare."},
	{Line: 11, Text: "\u201cCome down,\u201d said Jory."},
	{Line: 12, Text: "Séverine remembered Jory\u2019s laugh, and Jory was gone."},
	{Line: 13, Text: "\U0001F514 The bell rang the 13th stroke; the thirteenth stroke faded."},
	{Line: 14, Text: "Sevrine watched the Dunns\u2019 ferry go."},
}

// planted names each slip and decoy by its line and words; the columns
// are computed from the final text.
var planted = []Expected{
	{Code: "timeline-order", Line: 2, Words: "2", Why: "day 2 comes after chapter 2's day 4"},
	{Code: "unknown-reference", Line: 3, Words: "Teodra Quill", Why: "a typo of Teodora Quill"},
	{Code: "trait-contradiction", Line: 9, Words: "dark brown eyes", Why: "Séverine's eyes are pale green"},
	{Code: "after-death", Line: 11, Words: "said Jory", Why: "Jory drowned in chapter 2"},
	{Code: "style-rule", Line: 13, Words: "13th", Why: "the house style spells out ordinals"},
	{Code: "name-spelling", Line: 14, Words: "Sevrine", Why: "a typo of Séverine, named six times"},

	{Line: 4, Words: "the Vault", Why: "an alias of Skerry Vault"},
	{Line: 10, Words: "brown eyes", Why: "Marek's eyes are brown"},
	{Line: 12, Words: "Jory\u2019s laugh", Why: "Jory remembered, not acting"},
	{Line: 12, Words: "Jory was gone", Why: "Jory described, not acting"},
	{Line: 13, Words: "thirteenth", Why: "the preferred form itself"},
	{Line: 14, Words: "Dunns", Why: "the Dunn family, one letter from Dunn but no misspelling"},
}

// SlipBook writes the slip book to dir and returns its fixture, with
// dir's symlinks resolved as the editors report paths.
func SlipBook(t testing.TB, dir string) Slips {
	t.Helper()
	WriteFiles(t, dir, slipFiles)
	book, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	s := Slips{Chapter: filepath.Join(book, filepath.FromSlash(SlipChapter)), Clean: slipFiles[SlipChapter], Typed: typedLines, Fix: nameSpellingFix}
	lines := strings.Split(s.Clean, "\n")
	for _, ty := range typedLines {
		require.LessOrEqual(t, ty.Line, len(lines), "typed line %d", ty.Line)
		lines = append(lines[:ty.Line], append([]string{ty.Text}, lines[ty.Line:]...)...)
	}
	s.Final = strings.Join(lines, "\n")
	for _, p := range planted {
		line := lines[p.Line]
		b := strings.Index(line, p.Words)
		require.GreaterOrEqual(t, b, 0, "%q on line %d", p.Words, p.Line)
		require.Equal(t, b, strings.LastIndex(line, p.Words), "%q once on line %d", p.Words, p.Line)
		e := b + len(p.Words)
		p.ByteCol, p.ByteEnd = b, e
		p.CharCol, p.CharEnd = utf8.RuneCountInString(line[:b]), utf8.RuneCountInString(line[:e])
		p.UTF16Col, p.UTF16End = utf16Len(line[:b]), utf16Len(line[:e])
		if p.Code != "" {
			s.Slips = append(s.Slips, p)
		} else {
			s.Decoys = append(s.Decoys, p)
		}
	}
	return s
}

// WriteJSON writes the fixture to path for the editor's script to read.
func (s Slips) WriteJSON(t testing.TB, path string) {
	t.Helper()
	b, err := json.MarshalIndent(s, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// Codes are the slips' diagnostic codes, in the fixture's order.
func (s Slips) Codes() []string {
	out := make([]string, len(s.Slips))
	for i, e := range s.Slips {
		out[i] = e.Code
	}
	return out
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }
