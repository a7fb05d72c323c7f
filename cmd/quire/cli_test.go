package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
)

// run executes the quire command line in-process and returns its output.
func run(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newRootCommand(strings.NewReader(""), &out, &errOut)
	cmd.SetArgs(args)
	err = cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// sampleProject writes the sample book to a temporary folder, with its
// index in another, and returns the book's folder and the cache flag.
func sampleProject(t *testing.T) (book, cacheFlag string) {
	t.Helper()
	book = filepath.Join(t.TempDir(), "book")
	_, _, err := run(t, "init", "--sample", book)
	require.NoError(t, err)
	return book, "--cache-dir=" + filepath.Join(t.TempDir(), "cache")
}

func TestInitSampleWritesTheBook(t *testing.T) {
	book := filepath.Join(t.TempDir(), "book")
	out, _, err := run(t, "init", "--sample", book)
	require.NoError(t, err)
	assert.Contains(t, out, "The Thirteenth Bell")
	for _, rel := range []string{
		"quire.yaml",
		"manuscript/01-thirteen-strokes.md",
		"codex/characters/teodora-quill/index.md",
		"codex/characters/teodora-quill/soul.md",
	} {
		assert.FileExists(t, filepath.Join(book, rel))
	}

	_, _, err = run(t, "init", "--sample", book)
	require.Error(t, err, "init never writes over a writer's files")
	assert.Contains(t, err.Error(), "not empty")
}

func TestInitEmptyProject(t *testing.T) {
	book := filepath.Join(t.TempDir(), "new")
	_, _, err := run(t, "init", book)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(book, "quire.yaml"))
	assert.FileExists(t, filepath.Join(book, "manuscript", "01-chapter-one.md"))
	for _, typ := range codex.Types {
		assert.DirExists(t, filepath.Join(book, "codex", typ.Plural()))
	}
	out, _, err := run(t, "index", "--project", book, "--cache-dir="+t.TempDir())
	require.NoError(t, err)
	assert.Contains(t, out, "Indexed 0 codex entries")
}

// TestSampleBook pins what the sample is for: every type, a folder-shaped
// character with a soul, and the deliberate problems the demo shows.
func TestSampleBook(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "index", "--project", book, cache, "--json")
	require.NoError(t, err)
	var rep indexReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 26, rep.Report.Entries)
	for _, typ := range codex.Types {
		assert.Positive(t, rep.Types[typ], "the sample has %s entries", typ)
	}
	var codes []string
	for _, p := range rep.Problems {
		codes = append(codes, p.Code+" "+p.Path)
	}
	assert.ElementsMatch(t, []string{
		"duplicate-name codex/characters/jory-fenwick.md",
		"duplicate-name codex/locations/gannet-light.md",
		"broken-link codex/organizations/greyhand-company.md",
	}, codes)

	s, err := codex.Open(context.Background(), book, codex.Options{InMemory: true})
	require.NoError(t, err)
	defer s.Close()
	teo, ok := s.Catalog().Get("codex/characters/teodora-quill/index.md")
	require.True(t, ok)
	require.NotNil(t, teo.Soul)
	assert.Equal(t, []string{"role"}, teo.Locked)
}

func TestIndexText(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "index", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "Indexed 26 codex entries")
	assert.Contains(t, out, "built anew")
	assert.Contains(t, out, `codex/organizations/greyhand-company.md:15:39: warning: no codex entry is named "Port Caddow"`)

	out, _, err = run(t, "index", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "up to date")
}

func TestLookup(t *testing.T) {
	book, cache := sampleProject(t)
	tests := []struct {
		args      []string
		wantName  string
		wantMatch codex.MatchKind
	}{
		{[]string{"Teodora Quill"}, "Teodora Quill", codex.MatchName},
		{[]string{"teo", "--type", "character"}, "Teodora Quill", codex.MatchAlias},
		{[]string{"Severine"}, "Séverine Aubrac", codex.MatchPartial},
		{[]string{"Séverine's"}, "Séverine Aubrac", codex.MatchPartial},
		{[]string{"Harbour", "Tally"}, "Harbor Tally", codex.MatchFuzzy},
		{[]string{"the", "Harbormistress"}, "Séverine Aubrac", codex.MatchAlias},
		{[]string{"low-bell"}, "Low Bell", codex.MatchStem},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, _, err := run(t, append([]string{"lookup", "--project", book, cache, "--json"}, tt.args...)...)
			require.NoError(t, err)
			var got queryOutput
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			require.NotEmpty(t, got.Results)
			r := got.Results[0]
			assert.Equal(t, tt.wantName, r.Name)
			assert.Equal(t, tt.wantMatch, r.Match)
			assert.NotEmpty(t, r.Excerpt)
			assert.Equal(t, filepath.Clean(book), filepath.Clean(r.ProjectPath))
		})
	}

	out, _, err := run(t, "lookup", "--project", book, cache, "Teo")
	require.NoError(t, err)
	assert.Contains(t, out, "Teodora Quill (character) — codex/characters/teodora-quill/index.md")
	assert.Contains(t, out, "Also known as: Teo, the Tallywoman")
	assert.Contains(t, out, "Soul:")

	_, errOut, err := run(t, "lookup", "--project", book, cache, "Nobody", "At", "All")
	assert.Equal(t, exitError{1}, err)
	assert.Contains(t, errOut, `no entry matches "Nobody At All"`)

	_, _, err = run(t, "lookup", "--project", book, cache, "Low Bell", "--type", "character")
	assert.Equal(t, exitError{1}, err, "a type filter narrows the lookup")

	// An entry with no summary: key has its first paragraph for one; it
	// is printed once, not as the summary and again as the excerpt.
	out, _, err = run(t, "lookup", "--project", book, cache, "Drowned Market")
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(out, "The Drowned Market is the cobbled square"), out)
	out, _, err = run(t, "lookup", "--project", book, cache, "Teodora Quill")
	require.NoError(t, err)
	assert.Contains(t, out, "Night clerk of the Harbor Tally in Brinmouth", "a summary of its own is printed")
}

// `quire lookup` of 70,000 characters printed 140 KB, the name twice. A
// name longer than any entry's is refused in a line that does not repeat
// it, and what is repeated of a long name is its start only.
func TestLookupIsBounded(t *testing.T) {
	book, cache := sampleProject(t)
	long := strings.Repeat("x", 69999) + "Q"
	out, errOut, err := run(t, "lookup", "--project", book, cache, long)
	require.Error(t, err)
	assert.Contains(t, errOut+err.Error(), "the name is 70000 characters long")
	assert.Less(t, len(out)+len(errOut)+len(err.Error()), 600)

	name := strings.Repeat("Ilse ", 100)
	out, _, err = run(t, "lookup", "--project", book, cache, "--json", name)
	assert.Equal(t, exitError{1}, err)
	var got queryOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.LessOrEqual(t, len([]rune(got.Query)), codex.MaxEchoChars)
	_, errOut, err = run(t, "lookup", "--project", book, cache, name)
	assert.Equal(t, exitError{1}, err)
	assert.Less(t, len(errOut), 300, errOut)
}

func TestSearch(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "search", "--project", book, cache, "--json", "thirteenth stroke")
	require.NoError(t, err)
	var got queryOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotEmpty(t, got.Results)
	assert.LessOrEqual(t, len(got.Results), codex.MaxSearchResults)
	var names []string
	for _, r := range got.Results {
		names = append(names, r.Name)
	}
	assert.Contains(t, names, "Low Bell")

	out, _, err = run(t, "search", "--project", book, cache, "--json", "--type", "item", "bell")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotEmpty(t, got.Results)
	for _, r := range got.Results {
		assert.Equal(t, codex.TypeItem, r.Type)
	}

	out, _, err = run(t, "search", "--project", book, cache, "--json", "--status", "tentative", "the")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	for _, r := range got.Results {
		assert.Equal(t, codex.StatusTentative, r.Status)
	}

	_, _, err = run(t, "search", "--project", book, cache, "--status", "maybe", "bell")
	require.Error(t, err)

	_, errOut, err := run(t, "search", "--project", book, cache, "zzzyzx")
	assert.Equal(t, exitError{1}, err)
	assert.Contains(t, errOut, "nothing in the codex matches")
}

func TestList(t *testing.T) {
	book, cache := sampleProject(t)
	out, _, err := run(t, "list", "--project", book, cache, "--json", "Characters")
	require.NoError(t, err)
	var got listOutput
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, codex.TypeCharacter, got.Type)
	assert.Equal(t, 8, got.Count)
	assert.Len(t, got.Entries, 8)

	out, _, err = run(t, "list", "--project", book, cache)
	require.NoError(t, err)
	assert.Contains(t, out, "NAME")
	assert.Equal(t, 26+1, strings.Count(strings.TrimSpace(out), "\n")+1, "a header and one line per entry")

	_, _, err = run(t, "list", "--project", book, cache, "spells")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "types are: character, location")
}

// TestProjectFoundFromSubfolder: without --project, the nearest folder
// upwards that looks like a book is used.
func TestProjectFoundFromSubfolder(t *testing.T) {
	book, cache := sampleProject(t)
	t.Chdir(filepath.Join(book, "codex", "characters"))
	out, _, err := run(t, "lookup", cache, "--json", "Teo")
	require.NoError(t, err)
	assert.Contains(t, out, `"relativePath": "codex/characters/teodora-quill/index.md"`)
}

// TestQueriesWhileIndexIsHeld: a query while another process holds the
// index still answers, from memory, and says so; `index` reports the lock.
func TestQueriesWhileIndexIsHeld(t *testing.T) {
	book, cache := sampleProject(t)
	dir := strings.TrimPrefix(cache, "--cache-dir=")
	held, err := codex.Open(context.Background(), book, codex.Options{CacheDir: dir})
	require.NoError(t, err)
	defer held.Close()

	out, errOut, err := run(t, "lookup", "--project", book, cache, "Teo")
	require.NoError(t, err)
	assert.Contains(t, out, "Teodora Quill")
	assert.Contains(t, errOut, "in use by another quire process")
	assert.Equal(t, 1, strings.Count(errOut, "in use by another quire process"), "said once, not logged besides: %q", errOut)

	_, _, err = run(t, "index", "--project", book, cache)
	require.ErrorIs(t, err, codex.ErrIndexLocked)
}

func TestQuireWritesNothingIntoTheBook(t *testing.T) {
	book, cache := sampleProject(t)
	before := tree(t, book)
	for _, args := range [][]string{{"index"}, {"lookup", "Teo"}, {"search", "bell"}, {"list"}} {
		_, _, err := run(t, append(args, "--project", book, cache)...)
		require.NoError(t, err)
	}
	assert.Equal(t, before, tree(t, book))
}

func tree(t *testing.T, root string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	require.NoError(t, filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[rel] = info.Size()
		return nil
	}))
	return out
}

func TestGenCorpus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	out, _, err := run(t, "gen-corpus", dir, "--entries", "70", "--chapters", "2", "--chapter-words", "200")
	require.NoError(t, err)
	assert.Contains(t, out, "Wrote 70 entries and 2 chapters")
	out, _, err = run(t, "index", "--project", dir, "--cache-dir="+t.TempDir(), "--json")
	require.NoError(t, err)
	assert.Contains(t, out, `"entries": 70`)
}
