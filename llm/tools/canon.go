package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
)

const (
	// maxNameChars bounds the name a get_<type>_context call takes.
	maxNameChars = 200
	// maxQueryChars bounds a search_codex query: the codex's own bound.
	maxQueryChars = codex.MaxQueryChars
	// maxAlsoMatching bounds the other matches a lookup names.
	maxAlsoMatching = 5
	// maxNotFoundCandidates bounds the names a failed lookup suggests.
	maxNotFoundCandidates = 5
	// maxListEntries bounds what list_codex_entries returns.
	maxListEntries = 200
)

// canonEntryOf is r as the model sees it: the entry's JSON every part
// of quire shares (codex.Result), with the book-relative path only (no
// path of the writer's computer: the project's, a series entry's) and
// the text scrubbed of what the model must not read.
func (src *Sources) canonEntryOf(r codex.Result) codex.Result {
	r.ProjectPath, r.SeriesPath, r.SeriesFields = "", "", nil
	r.Summary, r.Excerpt, r.SoulExcerpt = src.scrub(r.Summary), src.scrub(r.Excerpt), src.scrub(r.SoulExcerpt)
	return r
}

// canonLookup is what get_<type>_context returns: the best match, and
// the names of the others.
type canonLookup struct {
	codex.Result
	// Fields are the entry's custom fields as of AsOf's chapter; set only
	// when the entry is answered as of a chapter.
	Fields       map[string]string `json:"fields,omitempty"`
	AlsoMatching []string          `json:"alsoMatching,omitempty"`
	// AsOf, when set, says which chapter the entry is answered as of and
	// which progressions hold there.
	AsOf *canonAsOf `json:"asOf,omitempty"`
}

// canonListing is what list_codex_entries returns.
type canonListing struct {
	EntryType codex.Type     `json:"entryType"`
	Count     int            `json:"count"`
	Entries   []canonSummary `json:"entries"`
}

// canonSummary is an entry in a listing: no excerpts.
type canonSummary struct {
	Name         string       `json:"name"`
	RelativePath string       `json:"relativePath"`
	Aliases      []string     `json:"aliases,omitempty"`
	Summary      string       `json:"summary,omitempty"`
	Status       codex.Status `json:"status"`
	Tags         []string     `json:"tags,omitempty"`
	Canon        string       `json:"canon,omitempty"`
}

// canonSearch is what search_codex returns.
type canonSearch struct {
	Query     string         `json:"query"`
	EntryType codex.Type     `json:"entryType,omitempty"`
	Results   []codex.Result `json:"results"`
}

// typeBlurbs say what each built-in type holds, for tool descriptions.
var typeBlurbs = map[codex.Type]string{
	codex.TypeCharacter:    "a character (a person or other being in the story)",
	codex.TypeLocation:     "a location: a place or setting",
	codex.TypeOrganization: "an organization: an institution, faction, guild, government or similar group",
	codex.TypeItem:         "an item: an object, technology, artifact or resource",
	codex.TypeConcept:      "a concept: a world rule, social system, term, piece of history or recurring idea",
	codex.TypeEvent:        "an event or timeline entry",
	codex.TypeStyle:        "a style rule or style guide entry",
}

func canonContextTool(src *Sources, t codex.Type) provider.Tool {
	blurb := typeBlurbs[t]
	if blurb == "" {
		blurb = "a " + string(t) + " entry"
	}
	soul := ""
	if t == codex.TypeCharacter {
		soul = " (and of the character's soul, when it has one)"
	}
	return provider.Tool{
		Name: fmt.Sprintf("get_%s_context", t),
		Description: fmt.Sprintf("Look up the writer's canon for %s by name, title, file name or alias "+
			"(case and accents ignored; a partial name or a small typo still finds it). "+
			"Returns a compact entry: its summary, aliases, tags, status and a bounded excerpt of its text"+
			"%s, plus the names of other entries that also match. "+
			"Canon changes as the story goes on (a character dies, takes a title, moves): give asOf, a chapter number, title or path, "+
			"to see the entry as of that chapter; when the writer is in a chapter and asOf is left out, the entry is answered as of that chapter. "+
			"The result's asOf says which chapter and which progressions apply. "+
			"When nothing matches, use search_codex with a few words instead.",
			blurb, soul),
		Parameters: objectSchema(map[string]any{
			"name": map[string]any{
				"type":        "string",
				"minLength":   1,
				"maxLength":   maxNameChars,
				"description": fmt.Sprintf("The %s's name, title or alias as the writer uses it.", t),
			},
			"asOf": map[string]any{
				"type":        "string",
				"minLength":   1,
				"maxLength":   maxNameChars,
				"description": "Optional: the chapter to see the entry as of (a chapter number, title or project-relative path, as get_manuscript_context takes them). Defaults to the writer's current chapter, if any.",
			},
		}, "name"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := src.canonContext(ctx, t, raw)
			return data, warnings, src.scrubErr(err)
		},
	}
}

func (src *Sources) canonContext(ctx context.Context, t codex.Type, raw json.RawMessage) (any, []string, error) {
	var args struct {
		Name string  `json:"name"`
		AsOf *string `json:"asOf"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	read := src.reading(Lookup{Tool: fmt.Sprintf("get_%s_context", t), Name: args.Name})
	name := strings.TrimSpace(args.Name)
	switch {
	case name == "":
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "name is empty; give the %s's name, title or alias", t)
	case utf8.RuneCountInString(name) > maxNameChars:
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "name is longer than %d characters", maxNameChars)
	}
	if src == nil || src.Store == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no codex is open for this turn")
	}
	chapter, implied, err := src.asOfChapter(args.AsOf)
	if err != nil {
		return nil, nil, err
	}
	results := src.canon().Lookup(name, t)
	if len(results) == 0 {
		te := toolloop.Errorf(toolloop.CodeNotFound, "no %s entry matches %q; try search_codex with a few words about it, or list_codex_entries to see every %s", t, name, t)
		if found, _, err := src.canon().SearchNow(ctx, name, codex.SearchOptions{Type: t, Limit: maxNotFoundCandidates}); err == nil {
			for _, r := range found {
				te.Candidates = append(te.Candidates, r.Name)
			}
		}
		return nil, nil, te
	}
	best := results[0]
	read.add(best.RelativePath, entryHash(src, best.RelativePath))
	out := canonLookup{Result: src.canonEntryOf(best)}
	out.Score = 0
	if chapter != nil {
		src.applyAsOf(&out, chapter, implied)
		read.answeredAsOf(out.AsOf)
	}
	var warnings []string
	var tied []string
	for i, r := range results[1:] {
		if i < maxAlsoMatching {
			out.AlsoMatching = append(out.AlsoMatching, r.Name)
		}
		if r.Match == best.Match && r.Score == best.Score {
			tied = append(tied, fmt.Sprintf("%s (%s)", r.Name, r.RelativePath))
		}
	}
	if len(results)-1 > maxAlsoMatching {
		warnings = append(warnings, fmt.Sprintf("%d more entries also match; use a fuller name to narrow it", len(results)-1-maxAlsoMatching))
	}
	if len(tied) > 0 {
		warnings = append(warnings, fmt.Sprintf("%q matches %s equally well; this is %s (%s): check it is the one meant",
			name, strings.Join(tied, ", "), best.Name, best.RelativePath))
	}
	if best.Match == codex.MatchPartial || best.Match == codex.MatchFuzzy {
		warnings = append(warnings, fmt.Sprintf("no entry is named %q exactly; this is the closest (%s match): check it is the one meant", name, best.Match))
	}
	return out, warnings, nil
}

func listCodexTool(src *Sources) provider.Tool {
	return provider.Tool{
		Name: "list_codex_entries",
		Description: "List every canon entry of one type, compactly (name, path, aliases, summary, status, tags), " +
			"for counts, cast lists, setting lists and overviews. No entry text: use the get_<type>_context tools to read one.",
		Parameters: objectSchema(map[string]any{
			"entryType": map[string]any{
				"type":        "string",
				"enum":        entryTypeEnum(),
				"description": "The type of entry to list.",
			},
		}, "entryType"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := src.listCodex(raw)
			return data, warnings, src.scrubErr(err)
		},
	}
}

func (src *Sources) listCodex(raw json.RawMessage) (any, []string, error) {
	var args struct {
		EntryType string `json:"entryType"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	read := src.reading(Lookup{Tool: "list_codex_entries", EntryType: args.EntryType})
	t, err := builtinType(args.EntryType, true)
	if err != nil {
		return nil, nil, err
	}
	if src == nil || src.Store == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no codex is open for this turn")
	}
	results := src.canon().List(t)
	out := canonListing{EntryType: t, Count: len(results), Entries: []canonSummary{}}
	var warnings []string
	for i, r := range results {
		if i == maxListEntries {
			warnings = append(warnings, fmt.Sprintf("%d of %d %s entries left out to keep this short; use search_codex to find the others",
				len(results)-maxListEntries, len(results), t))
			break
		}
		if i < maxEvidencePaths {
			read.add(r.RelativePath, entryHash(src, r.RelativePath))
		}
		out.Entries = append(out.Entries, canonSummary{
			Name:         r.Name,
			RelativePath: r.RelativePath,
			Aliases:      r.Aliases,
			Summary:      src.scrub(r.Summary),
			Status:       r.Status,
			Tags:         r.Tags,
			Canon:        r.Canon,
		})
	}
	return out, warnings, nil
}

func searchCodexTool(src *Sources) provider.Tool {
	return provider.Tool{
		Name: "search_codex",
		Description: fmt.Sprintf("Search the writer's canon by words when the exact entry name or type is unknown: "+
			"names, aliases, titles, types, paths, summaries and entry text are searched. "+
			"Returns up to %d compact matches, best first, each with a short excerpt. "+
			"Narrow it with entryType when the kind of entry is known.", codex.MaxSearchResults),
		Parameters: objectSchema(map[string]any{
			"query": map[string]any{
				"type":        "string",
				"minLength":   1,
				"maxLength":   maxQueryChars,
				"description": "A few words to look for.",
			},
			"entryType": map[string]any{
				"type":        "string",
				"enum":        entryTypeEnum(),
				"description": "Only entries of this type.",
			},
		}, "query"),
		Run: func(ctx context.Context, raw json.RawMessage) (any, []string, error) {
			data, warnings, err := src.searchCodex(ctx, raw)
			return data, warnings, src.scrubErr(err)
		},
	}
}

func (src *Sources) searchCodex(ctx context.Context, raw json.RawMessage) (any, []string, error) {
	var args struct {
		Query     string `json:"query"`
		EntryType string `json:"entryType"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, nil, err
	}
	read := src.reading(Lookup{Tool: "search_codex", Query: args.Query, EntryType: args.EntryType})
	q := strings.TrimSpace(args.Query)
	switch {
	case q == "":
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "query is empty; give a few words to look for")
	case utf8.RuneCountInString(q) > maxQueryChars:
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "query is longer than %d characters", maxQueryChars)
	}
	t, err := builtinType(args.EntryType, false)
	if err != nil {
		return nil, nil, err
	}
	if src == nil || src.Store == nil {
		return nil, nil, toolloop.Errorf(toolloop.CodeToolFailed, "no codex is open for this turn")
	}
	// While the search index is still being built, names are matched in
	// the catalog at once rather than keeping the turn waiting.
	results, namesOnly, err := src.canon().SearchNow(ctx, q, codex.SearchOptions{Type: t})
	if errors.Is(err, codex.ErrEmptyQuery) {
		return nil, nil, toolloop.Errorf(toolloop.CodeInvalidArguments, "query %q has no words to search for", q)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("search failed: %w", err)
	}
	out := canonSearch{Query: q, EntryType: t, Results: []codex.Result{}}
	for i, r := range results {
		if i < maxEvidencePaths {
			read.add(r.RelativePath, entryHash(src, r.RelativePath))
		}
		out.Results = append(out.Results, src.canonEntryOf(r))
	}
	var warnings []string
	if namesOnly {
		warnings = append(warnings, "the codex's search index is still being built: only names, titles and aliases were matched, not summaries or bodies; search again in a moment for those")
	}
	if len(out.Results) == 0 {
		what := "canon entry"
		if t != "" {
			what = string(t) + " entry"
		}
		warnings = append(warnings, fmt.Sprintf("no %s matches %q; try other words, drop entryType, or list_codex_entries", what, q))
	}
	return out, warnings, nil
}

// builtinType reads an entryType argument: one of the built-in types,
// in any case, singular or plural. Empty is allowed unless required.
func builtinType(s string, required bool) (codex.Type, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if required {
			return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "entryType is required; one of %s", strings.Join(entryTypeEnum(), ", "))
		}
		return "", nil
	}
	t := codex.ParseType(s)
	if !t.Builtin() {
		return "", toolloop.Errorf(toolloop.CodeInvalidArguments, "unknown entryType %q; one of %s", s, strings.Join(entryTypeEnum(), ", "))
	}
	return t, nil
}
