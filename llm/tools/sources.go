package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
)

// Sources are what the tools of one advisor turn read: the codex, a
// manuscript snapshot, and the writer's place in it.
type Sources struct {
	Store *codex.Store
	// Canon, when set, is Store read with the book's series canon
	// (codex.View): the read tools answer from both and say "series
	// canon" of what comes from the series. Proposals still go to Store.
	Canon      *codex.View
	Manuscript *manuscript.Snapshot
	// Snapshots, when set, gives the manuscript as it is at each call and
	// Manuscript is not used: long-lived sources (quire mcp) follow the
	// files, where one advisor turn reads a fixed snapshot.
	Snapshots func() *manuscript.Snapshot
	Place     manuscript.Place
	// Limits bound get_manuscript_context; zero fields take the
	// manuscript package's defaults.
	Limits manuscript.Limits
	// Continuity are the book's continuity settings (quire.yaml's traits:
	// and checks:, continuity.OptionsFrom); the zero value runs every
	// check at its default level. Their Dialogue (quire.yaml's
	// dialogue:) says which marks are speech for get_dialogue too.
	Continuity continuity.Options
	// Outline are quire.yaml's outline: settings, for get_outline's acts
	// and scenes; zero rules fall back to Continuity.Scenes.
	Outline manuscript.OutlineSettings
	// Timeline, when set, is the caller's own canon over story time for
	// cat and snap, kept across turns (the language server's, which hover
	// reads), or nil when it keeps none for them: the turn then builds
	// its own. A canon of 10,000 entries takes some 60 ms to build (its
	// name-spelling index most of it), on every turn without it.
	Timeline func(cat *codex.Catalog, snap *manuscript.Snapshot) *continuity.Timeline
	// story caches the canon over story time the tools and the turn's
	// context read; ForTurn sets it, and copies of the sources share it.
	story *storyCache
	// evidence collects what the tools read during one advisor turn;
	// ForTurn sets it on the turn's own copy of the sources.
	evidence *Evidence
}

// ForTurn is the copy of src one advisor turn's tools read: they record
// what they read in e (nil records nothing), and share src's story-time
// cache, made here when src has none.
func (src *Sources) ForTurn(e *Evidence) *Sources {
	out := *src
	out.evidence = e
	if out.story == nil {
		out.story = &storyCache{}
	}
	return &out
}

// canonReader is what the read tools ask of the codex.
type canonReader interface {
	Lookup(name string, t codex.Type) []codex.Result
	List(t codex.Type) []codex.Result
	SearchNow(ctx context.Context, q string, opt codex.SearchOptions) ([]codex.Result, bool, error)
	Catalog() *codex.Catalog
}

// canon is the codex the read tools read: the book's with its series'
// when the book has one.
func (src *Sources) canon() canonReader {
	if src.Canon != nil {
		return src.Canon
	}
	return src.Store
}

// snapshot is the manuscript the tools read now.
func (src *Sources) Snapshot() *manuscript.Snapshot {
	if src == nil {
		return nil
	}
	if src.Snapshots != nil {
		return src.Snapshots()
	}
	return src.Manuscript
}

// Read are the tools through which the model reads the book, in the
// order the model is shown them. None of them writes anything.
func Read(src *Sources) []provider.Tool {
	if src != nil && src.story == nil {
		// Long-lived sources (quire mcp) build their tools once: they share
		// one story-time cache rather than rebuild the canon every call.
		src.story = &storyCache{}
	}
	tools := []provider.Tool{manuscriptContextTool(src)}
	for _, t := range codex.Types {
		tools = append(tools, canonContextTool(src, t))
	}
	return append(tools, listCodexTool(src), searchCodexTool(src), dialogueTool(src), outlineTool(src))
}

// roots are the absolute project folders the sources know, longest first,
// so that no message built from them leaks where the project lies.
func (src *Sources) roots() []string {
	var out []string
	add := func(r string) {
		if r == "" {
			return
		}
		for _, v := range []string{r, filepath.ToSlash(r)} {
			if v != "" && v != "/" && v != "." {
				out = append(out, v)
			}
		}
	}
	if src != nil && src.Store != nil {
		add(src.Store.Root())
	}
	if src != nil && src.Canon != nil && src.Canon.Series() != nil {
		add(src.Canon.Series().Root())
	}
	if snap := src.Snapshot(); snap != nil {
		add(snap.Root())
	}
	return out
}

// scrub replaces every mention of the project's absolute folder in s
// with "<project>": what goes to the model names files by their
// project-relative paths only, and where the book lies on disk (a home
// folder, a user name) is none of its business.
func (src *Sources) scrub(s string) string {
	for _, r := range src.roots() {
		s = strings.ReplaceAll(s, r, "<project>")
	}
	return s
}

// scrubErr keeps a tool error's code and scrubs its message and
// candidates; any other error becomes a TOOL_FAILED with a scrubbed
// message.
func (src *Sources) scrubErr(err error) error {
	if err == nil {
		return nil
	}
	te, ok := err.(*toolloop.ToolError)
	if !ok {
		return &toolloop.ToolError{Code: toolloop.CodeToolFailed, Message: src.scrub(err.Error())}
	}
	out := &toolloop.ToolError{Code: te.Code, Message: src.scrub(te.Message)}
	for _, c := range te.Candidates {
		out.Candidates = append(out.Candidates, src.scrub(c))
	}
	return out
}

// decodeArgs decodes a tool's arguments strictly: unknown fields and
// anything but one JSON object are INVALID_ARGUMENTS. The dispatcher
// validates the schema first; this is the tool's own guard.
func decodeArgs(raw json.RawMessage, v any) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return toolloop.Errorf(toolloop.CodeInvalidArguments, "arguments do not fit the tool's schema: %v", err)
	}
	if dec.More() {
		return toolloop.Errorf(toolloop.CodeInvalidArguments, "arguments must be a single JSON object")
	}
	return nil
}

// objectSchema is a JSON schema object that takes no other properties.
func objectSchema(properties map[string]any, required ...string) map[string]any {
	s := map[string]any{
		"type":                 "object",
		"properties":           properties,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// entryTypeEnum lists the built-in entry types, as schemas offer them.
func entryTypeEnum() []string {
	out := make([]string, 0, len(codex.Types))
	for _, t := range codex.Types {
		out = append(out, string(t))
	}
	return out
}
