package tools

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/proposal"
	"github.com/quire-ink/quire/codex/proposal/proposaltest"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

const maraIndex = "---\nname: Mara Vell\naliases: [Mara, the Widow]\nsummary: Smuggler who owes the sea a debt.\nrole: smuggler\nlocked: [summary]\n---\n" +
	"# Mara Vell\n\nMara runs contraband through the fog.\n\n## Backstory\n\nBorn at sea.\n\n## Role\n\nShe moves goods.\n"

const maraSoul = "# Soul\n\n## Fears\n\nStill water.\n"

func proposeFiles() map[string]string {
	return map[string]string{
		"codex/characters/mara-vell/index.md": maraIndex,
		"codex/characters/mara-vell/soul.md":  maraSoul,
		"codex/characters/anne-marsh.md": "---\nname: Anne Marsh\naliases: [The Widow]\nrole: keeper\nstatus: tentative\n---\n" +
			"# Anne Marsh\n\nKeeps the lighthouse.\n",
		"codex/locations/quay.md":     "---\nname: Quay of Lanterns\n---\n# Quay of Lanterns\n\nLanterns hang along the quay.\n",
		"codex/locations/old-pier.md": "---\nname: Harbour Pier\n---\n# Harbour Pier\n\nRotten planks.\n",
		"manuscript/01-the-harbor.md": "# The Harbor\n\nMara Vell walked the quay at dusk.\n",
	}
}

// snapshotTree reads every file under root, to prove nothing was written.
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = string(b)
		return nil
	}))
	return out
}

type proposeFixture struct {
	src   *Sources
	store *proposal.Store
	tools []provider.Tool
	root  string
}

func newProposeFixture(t *testing.T) *proposeFixture {
	t.Helper()
	b, _ := openBook(t, proposeFiles())
	store := proposal.NewStore(0)
	f := &proposeFixture{src: b, store: store, tools: Propose(b, store), root: b.Store.Root()}
	before := snapshotTree(t, f.root)
	t.Cleanup(func() { assert.Equal(t, before, snapshotTree(t, f.root), "a propose tool wrote to the project") })
	return f
}

func (f *proposeFixture) run(t *testing.T, tool string, args map[string]any) toolloop.Envelope {
	t.Helper()
	raw, err := json.Marshal(args)
	require.NoError(t, err)
	return toolloop.EnvelopeOf(toolNamed(t, f.tools, tool).Run(context.Background(), raw))
}

// applied returns the proposal of env and the text of file after its edits.
func (f *proposeFixture) applied(t *testing.T, env toolloop.Envelope, file string) (proposal.Proposal, string) {
	t.Helper()
	require.True(t, env.OK, "errors: %+v", env.Errors)
	res, ok := env.Data.(proposalResult)
	require.True(t, ok)
	p, ok := f.store.Get(res.ProposalID)
	require.True(t, ok)
	base, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(file)))
	require.NoError(t, err)
	for _, e := range p.Edits {
		if e.Path == file {
			assert.Equal(t, codex.HashText(string(base)), e.BaseHash)
		}
	}
	out, err := proposal.ApplyEdits(string(base), proposal.EditsOf(p.Edits, file))
	require.NoError(t, err)
	if len(proposal.EditsOf(p.Edits, file)) == len(p.Edits) {
		assert.Equal(t, out, proposaltest.Patch(t, string(base), p.Diff), "the diff shows exactly the edits:\n%s", p.Diff)
	}
	return p, out
}

func TestProposeUpdate(t *testing.T) {
	const index = "codex/characters/mara-vell/index.md"
	const soul = "codex/characters/mara-vell/soul.md"
	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		file      string
		want      string // the file after the edits
		warn      []string
		notInFile []string
	}{
		{
			name: "section text replaced, heading kept",
			tool: "propose_codex_update",
			args: map[string]any{"entryType": "character", "name": "Mara Vell", "changeSummary": "new birth",
				"targetSection": "backstory", "proposedMarkdown": "Born on a stolen ship.\n"},
			file: index,
			want: strings.Replace(maraIndex, "Born at sea.", "Born on a stolen ship.", 1),
		},
		{
			name: "proposal with its own heading replaces the section",
			tool: "propose_character_update",
			args: map[string]any{"name": "Mara", "changeSummary": "x",
				"targetSection": "Backstory", "proposedMarkdown": "## Backstory\n\nBorn in a storm."},
			file: index,
			want: strings.Replace(maraIndex, "Born at sea.", "Born in a storm.", 1),
		},
		{
			name: "missing section appended with a warning",
			tool: "propose_codex_update",
			args: map[string]any{"entryType": "character", "name": "Mara Vell", "changeSummary": "x",
				"targetSection": "Allies", "proposedMarkdown": "The dockhands."},
			file: index,
			want: maraIndex + "\n## Allies\n\nThe dockhands.\n",
			warn: []string{`no section "Allies"`},
		},
		{
			name: "soul section routed to soul.md",
			tool: "propose_character_update",
			args: map[string]any{"name": "Mara Vell", "changeSummary": "x",
				"targetSection": "Fears", "proposedMarkdown": "Still water, and her mother."},
			file: soul,
			want: strings.Replace(maraSoul, "Still water.", "Still water, and her mother.", 1),
		},
		{
			name: "locked field kept out of a full document",
			tool: "propose_codex_update",
			args: map[string]any{"entryType": "character", "name": "Mara Vell", "changeSummary": "x",
				"targetSection":    "Backstory",
				"proposedMarkdown": "---\nname: Mara Vell\nsummary: A queen now.\nage: \"41\"\n---\nBorn on a stolen ship."},
			file: index,
			want: strings.Replace(strings.Replace(maraIndex, "Born at sea.", "Born on a stolen ship.", 1),
				"locked: [summary]\n", "locked: [summary]\nage: \"41\"\n", 1),
			warn:      []string{`"summary" is locked`},
			notInFile: []string{"A queen now."},
		},
		{
			name: "role rewrite kept out when not asked",
			tool: "propose_character_update",
			args: map[string]any{"name": "Mara Vell", "changeSummary": "x", "targetSection": "Backstory",
				"proposedMarkdown": "---\nrole: queen\n---\nBorn on a stolen ship.\n\n### Role\n\nNow a queen.\n"},
			file:      index,
			want:      strings.Replace(maraIndex, "Born at sea.", "Born on a stolen ship.", 1),
			warn:      []string{"role field", `"Role" subsection`},
			notInFile: []string{"queen"},
		},
		{
			name: "sections past the target kept out",
			tool: "propose_character_update",
			args: map[string]any{"name": "Mara Vell", "changeSummary": "x", "targetSection": "Backstory",
				"proposedMarkdown": "Born on a stolen ship.\n\n## Role\n\nA queen."},
			file:      index,
			want:      strings.Replace(maraIndex, "Born at sea.", "Born on a stolen ship.", 1),
			warn:      []string{"goes on past section"},
			notInFile: []string{"A queen."},
		},
		{
			name: "role field narrowed to one value",
			tool: "propose_character_update",
			args: map[string]any{"name": "Anne Marsh", "changeSummary": "x", "targetSection": "role",
				"proposedMarkdown": "Keeper: and smuggler\n\nShe also rewrites her whole life."},
			file:      "codex/characters/anne-marsh.md",
			want:      strings.Replace(proposeFiles()["codex/characters/anne-marsh.md"], "role: keeper", "role: 'Keeper: and smuggler'", 1),
			warn:      []string{"only the first paragraph"},
			notInFile: []string{"whole life"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newProposeFixture(t)
			env := f.run(t, tt.tool, tt.args)
			p, got := f.applied(t, env, tt.file)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.file, p.Path)
			base, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(tt.file)))
			require.NoError(t, err)
			assert.Equal(t, codex.HashText(string(base)), p.BaseHash)
			assert.Equal(t, proposal.KindUpdate, p.Kind)
			assert.ElementsMatch(t, env.Warnings, p.Warnings)
			for _, w := range tt.warn {
				assert.Contains(t, strings.Join(env.Warnings, "\n"), w)
			}
			for _, s := range tt.notInFile {
				assert.NotContains(t, got, s)
			}
			if tt.warn == nil {
				assert.Empty(t, env.Warnings)
			}
			// The result still parses as the same entry.
			e, _ := codex.Parse(tt.file, []byte(got), codex.TypeCharacter)
			if !strings.HasSuffix(tt.file, "soul.md") {
				require.NotNil(t, e)
				assert.Equal(t, p.Name, e.Name)
			}
			res := env.Data.(proposalResult)
			assert.Contains(t, res.Status, "not applied")
			assert.NotEmpty(t, res.Changes)
			assert.NotEmpty(t, res.Markdown)
		})
	}
}

func TestProposeUpdateSectionRange(t *testing.T) {
	f := newProposeFixture(t)
	env := f.run(t, "propose_character_update", map[string]any{"name": "Mara Vell", "changeSummary": "x",
		"targetSection": "Backstory", "proposedMarkdown": "New."})
	p, _ := f.applied(t, env, "codex/characters/mara-vell/index.md")
	require.Len(t, p.Edits, 1)
	start := strings.Index(maraIndex, "## Backstory\n") + len("## Backstory\n")
	end := strings.Index(maraIndex, "## Role")
	assert.Equal(t, codex.Range{Start: start, End: end}, p.Edits[0].Range)
	assert.Equal(t, "\nNew.\n\n", p.Edits[0].NewText)
}

func TestProposeUpdateErrors(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args map[string]any
		code string
	}{
		{"unknown entry", "propose_codex_update", map[string]any{"entryType": "character", "name": "Nobody Here",
			"changeSummary": "x", "targetSection": "Backstory", "proposedMarkdown": "x"}, toolloop.CodeNotFound},
		{"wrong type", "propose_codex_update", map[string]any{"entryType": "location", "name": "Mara Vell",
			"changeSummary": "x", "targetSection": "Backstory", "proposedMarkdown": "x"}, toolloop.CodeNotFound},
		{"ambiguous alias", "propose_character_update", map[string]any{"name": "the widow",
			"changeSummary": "x", "targetSection": "Backstory", "proposedMarkdown": "x"}, toolloop.CodeAmbiguous},
		{"locked field target", "propose_character_update", map[string]any{"name": "Mara Vell",
			"changeSummary": "x", "targetSection": "summary", "proposedMarkdown": "A queen."}, toolloop.CodeInvalidArguments},
		{"too large", "propose_character_update", map[string]any{"name": "Mara Vell", "changeSummary": "x",
			"targetSection": "Backstory", "proposedMarkdown": strings.Repeat("a", proposal.MaxMarkdownBytes+1)}, toolloop.CodeArgumentsTooLarge},
		{"only locked changes", "propose_character_update", map[string]any{"name": "Mara Vell", "changeSummary": "x",
			"proposedMarkdown": "---\nsummary: New\n---\n"}, toolloop.CodeInvalidArguments},
		{"no target", "propose_character_update", map[string]any{"name": "Mara Vell", "changeSummary": "x",
			"proposedMarkdown": "Just text."}, toolloop.CodeInvalidArguments},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newProposeFixture(t)
			env := f.run(t, tt.tool, tt.args)
			require.False(t, env.OK)
			assert.Equal(t, tt.code, env.Errors[0].Code, env.Errors[0].Message)
			assert.Zero(t, f.store.Len())
		})
	}
}

func TestProposeCreate(t *testing.T) {
	tests := []struct {
		name     string
		args     map[string]any
		path     string
		soulPath string
		custom   map[string]any
		aliases  []string
		warn     string
	}{
		{
			name: "simple location",
			args: map[string]any{"entryType": "location", "name": "Salt Market", "changeSummary": "x",
				"fields": map[string]any{"summary": "Where salt is sold.", "tags": "market, trade"}, "markdownBody": "Stalls and gulls."},
			path: "codex/locations/salt-market.md",
		},
		{
			name: "character with a soul takes the folder shape",
			args: map[string]any{"entryType": "character", "name": "Jonah Reed", "changeSummary": "x",
				"fields":       map[string]any{"aliases": "Jon, the Reed"},
				"customFields": map[string]any{"role": "ferryman: reluctant"},
				"markdownBody": "A ferryman.", "soulMarkdown": "# Soul\n\nHe wants to be forgiven."},
			path: "codex/characters/jonah-reed/index.md", soulPath: "codex/characters/jonah-reed/soul.md",
			custom: map[string]any{"role": "ferryman: reluctant"}, aliases: []string{"Jon", "the Reed"},
		},
		{
			name: "path collision gets a suffix",
			args: map[string]any{"entryType": "location", "name": "Old Pier", "changeSummary": "x"},
			path: "codex/locations/old-pier-2.md",
		},
		{
			name: "colon and quotes",
			args: map[string]any{"entryType": "item", "name": `Captain: "Red" Hand's 'Key'`, "changeSummary": "x"},
			path: "codex/items/captain-red-hand-s-key.md",
		},
		{
			name: "leading dash",
			args: map[string]any{"entryType": "concept", "name": "- Dash Rule", "changeSummary": "x"},
			path: "codex/concepts/dash-rule.md",
		},
		{
			name: "yaml keywords and symbols",
			args: map[string]any{"entryType": "concept", "name": "yes", "changeSummary": "x",
				"customFields": map[string]any{"note": "#not a comment", "when": "null"}},
			path:   "codex/concepts/yes.md",
			custom: map[string]any{"note": "#not a comment", "when": "null"},
		},
		{
			name: "soul ignored for non-characters",
			args: map[string]any{"entryType": "item", "name": "Brass Key", "changeSummary": "x", "soulMarkdown": "A soul?"},
			path: "codex/items/brass-key.md",
			warn: "only characters have a soul",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newProposeFixture(t)
			env := f.run(t, "propose_codex_create", tt.args)
			require.True(t, env.OK, "%+v", env.Errors)
			res := env.Data.(proposalResult)
			p, ok := f.store.Get(res.ProposalID)
			require.True(t, ok)
			assert.Equal(t, tt.path, p.Path)
			assert.Equal(t, tt.soulPath, p.SoulPath)
			assert.Equal(t, proposal.KindCreate, p.Kind)
			assert.Empty(t, p.BaseHash)
			require.NotEmpty(t, p.Edits)
			assert.True(t, p.Edits[0].Create)
			assert.Equal(t, tt.path, p.Edits[0].Path)
			if tt.soulPath != "" {
				require.Len(t, p.Edits, 2)
				assert.Equal(t, tt.soulPath, p.Edits[1].Path)
				assert.Contains(t, p.Edits[1].NewText, "forgiven")
			} else {
				assert.Len(t, p.Edits, 1)
			}
			if tt.warn != "" {
				assert.Contains(t, strings.Join(env.Warnings, "\n"), tt.warn)
			}
			typ := codex.ParseType(tt.args["entryType"].(string))
			e, problems := codex.Parse(p.Path, []byte(p.Markdown), typ)
			require.NotNil(t, e)
			assert.Empty(t, problems)
			assert.Equal(t, tt.args["name"], e.Name)
			assert.Equal(t, typ, e.Type)
			assert.Equal(t, codex.StatusTentative, e.Status)
			assert.Equal(t, tt.aliases, e.Aliases)
			for k, v := range tt.custom {
				got, ok := e.Custom.Get(k)
				assert.True(t, ok, k)
				assert.Equal(t, v, got, k)
			}
			_, err := os.Stat(filepath.Join(f.root, filepath.FromSlash(p.Path)))
			assert.ErrorIs(t, err, fs.ErrNotExist)
		})
	}
}

func TestProposeCreateRefusesExisting(t *testing.T) {
	for _, name := range []string{"Mara Vell", "mara", "Harbour Pier"} {
		t.Run(name, func(t *testing.T) {
			f := newProposeFixture(t)
			typ := "character"
			if name == "Harbour Pier" {
				typ = "location"
			}
			env := f.run(t, "propose_codex_create", map[string]any{"entryType": typ, "name": name, "changeSummary": "x"})
			require.False(t, env.OK)
			assert.Equal(t, toolloop.CodeAmbiguous, env.Errors[0].Code)
			assert.Contains(t, env.Errors[0].Message, "propose_codex_update")
			assert.Contains(t, env.Errors[0].Message, "already exists at codex/")
		})
	}
}

func TestProposeCreateChecksSizesFirst(t *testing.T) {
	f := newProposeFixture(t)
	env := f.run(t, "propose_codex_create", map[string]any{"entryType": "dragon", "name": "Salt Market", "changeSummary": "x",
		"markdownBody": strings.Repeat("a", proposal.MaxMarkdownBytes+1)})
	require.False(t, env.OK)
	assert.Equal(t, toolloop.CodeArgumentsTooLarge, env.Errors[0].Code, env.Errors[0].Message)
	assert.Contains(t, env.Errors[0].Message, "markdownBody")
	assert.Zero(t, f.store.Len())
}

func TestProposeToolsRegister(t *testing.T) {
	f := newProposeFixture(t)
	reg, err := toolloop.NewRegistry(Propose(f.src, nil)...)
	require.NoError(t, err)
	assert.Equal(t, []string{"propose_codex_update", "propose_codex_create", "propose_character_update"}, reg.Names())
}
