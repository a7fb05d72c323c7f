package llm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/quire-ink/quire/llm/provider/providertest"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/llm/tools/toolstest"
	"github.com/quire-ink/quire/manuscript"
)

// sampleRoot is the sample book "The Thirteenth Bell" as `quire init
// --sample` writes it: Jory Fenwick's whereabouts change in chapters 1,
// 4 and 5, and chapter 5 gives Séverine brown eyes the codex says are
// pale green.
const sampleRoot = "../cmd/quire/sample"

const (
	chapter4 = "manuscript/04-the-vault-beneath-the-light.md"
	chapter5 = "manuscript/05-salt-debt.md"
)

// openSample opens a copy of the sample book as an advisor turn does,
// with the writer in the document current ("" for none).
func openSample(t *testing.T, current string) (*tools.Sources, []string) {
	t.Helper()
	store, snap, roots := toolstest.OpenCopy(t, sampleRoot)
	return (&tools.Sources{Store: store, Manuscript: snap, Place: manuscript.Place{Current: current}}).ForTurn(nil), roots
}

// TestContinuityEditorContextNamesTheChapterAndItsSlips asks the
// continuity editor about the sample's chapter 5: the turn's context
// names the chapter and its place in story time, and quire's own
// finding, the eye-colour slip, for the editor to confirm and extend.
func TestContinuityEditorContextNamesTheChapterAndItsSlips(t *testing.T) {
	b, roots := openSample(t, chapter5)
	s := providertest.New(t, providertest.TextStep("Séverine's eyes are brown in chapter 5 and pale green in the codex."))
	res, err := Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Check this chapter."}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	require.NotEmpty(t, res.Answer)

	msgs := s.Requests()[0].Decoded(t)["messages"].([]any)
	meta := msgs[1].(map[string]any)["content"].(string)
	for _, line := range []string{
		"The writer is in this chapter:",
		`- Chapter: 5 of 5 in reading order, "Salt-Debt"`,
		"- Point of view: Teo",
		"- Story day: 3",
		"- Location: Gannet Light",
		"the get_*_context tools answer as of this chapter unless you pass asOf with another chapter.",
		"quire's own continuity checks (deterministic, no model) found 1 problem in this chapter:",
		"trait-contradiction (warning):",
		"Séverine Aubrac",
		"pale green",
		"[see codex/characters/severine-aubrac.md line 11]",
		"do not just repeat them.",
	} {
		assert.Contains(t, meta, line)
	}
	assert.Regexp(t, `- line \d+, trait-contradiction \(warning\): "[^"]*dark brown eyes[^"]*" here`, meta)
	for _, r := range roots {
		assert.NotContains(t, meta, r)
	}
	system := msgs[0].(map[string]any)["content"].(string)
	assert.Contains(t, system, "judge a chapter against the canon as of that chapter")

	// Another persona is told the chapter but not the findings.
	s = providertest.New(t, providertest.TextStep("The stakes rise."))
	_, err = Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("developmental-editor"), Message: "Stakes?"}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	meta = s.Requests()[0].Decoded(t)["messages"].([]any)[1].(map[string]any)["content"].(string)
	assert.Contains(t, meta, `- Chapter: 5 of 5 in reading order, "Salt-Debt"`)
	assert.NotContains(t, meta, "continuity checks")

	// A clean chapter: the checks ran and found nothing.
	b.Place = manuscript.Place{Current: "manuscript/02-the-tally-does-not-lie.md"}
	s = providertest.New(t, providertest.TextStep("Nothing contradicts."))
	_, err = Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Check."}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	meta = s.Requests()[0].Decoded(t)["messages"].([]any)[1].(map[string]any)["content"].(string)
	assert.Contains(t, meta, "found nothing in this chapter")
}

// A misspelled name is among the continuity editor's findings, as in the
// editor: the advisor reads the same six checks.
func TestContinuityEditorContextHasMisspelledNames(t *testing.T) {
	files := toolstest.Files()
	files["manuscript/09-fog.md"] = "# Fog\n\nMara rowed. Then Mara waited, and Mara slept, and Mara woke.\n\n" +
		"By noon Mara was gone; Mara never came back, and Marra's boat drifted.\n"
	store, snap, _ := toolstest.Open(t, files)
	b := (&tools.Sources{Store: store, Manuscript: snap, Place: manuscript.Place{Current: "manuscript/09-fog.md"}}).ForTurn(nil)
	s := providertest.New(t, providertest.TextStep("Marra looks like a slip for Mara."))
	_, err := Ask(context.Background(), AskInput{Request: Request{Persona: ResolvePersona("continuity-editor"), Message: "Check this chapter."}, Sources: b, Provider: scriptedProvider(t, s)})
	require.NoError(t, err)
	meta := s.Requests()[0].Decoded(t)["messages"].([]any)[1].(map[string]any)["content"].(string)
	assert.Regexp(t, `- line 5, name-spelling \(warning\): “Marra” may be a misspelling of Mara`, meta)
}
