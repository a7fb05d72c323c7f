package llm

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/quire-ink/quire/llm/provider"
	"github.com/quire-ink/quire/llm/toolloop"
	"github.com/quire-ink/quire/manuscript"
)

// Bounds of an evidence row: it records what was looked up, never what
// was read.
const (
	maxEvidenceArgRunes = 200
	maxEvidencePaths    = 8
)

// Lookup is one tool call of a turn as evidence: which tool, asked for
// what, whether it worked, and which project files it read, each with the
// hash of the text as read. It never holds prose.
type Lookup struct {
	Round int    `json:"round"`
	Tool  string `json:"tool"`
	// Ref is get_manuscript_context's ref (refs joined by ", "), Name a
	// canon tool's name, Query search_codex's query, EntryType the type
	// asked for; each bounded to 200 characters.
	Ref       string `json:"ref,omitempty"`
	Name      string `json:"name,omitempty"`
	Query     string `json:"query,omitempty"`
	EntryType string `json:"entryType,omitempty"`
	OK        bool   `json:"ok"`
	// Code is the first error code of the envelope, "" when OK.
	Code string `json:"code,omitempty"`
	// Paths are the project-relative files the call read: the units'
	// files for get_manuscript_context, the entry for a canon lookup, the
	// results (at most 8) for search_codex and list_codex_entries.
	Paths []string `json:"paths,omitempty"`
	// Hashes go with Paths, one each ("sha256:…", "" when the text is not
	// at hand): a unit's prose before any truncation (a selection's own
	// hash), an entry file's source.
	Hashes []string `json:"hashes,omitempty"`
}

// evidenceOf derives the lookups of a turn from its messages: every
// assistant tool call from index start on, joined to the tool message
// that answers it. Proposal tools are not lookups and are left out; the
// turn's proposals are reported on their own.
func evidenceOf(b *Book, messages []provider.Message, start int) []Lookup {
	if start < 0 || start > len(messages) {
		start = 0
	}
	type pending struct {
		round int
		call  provider.ToolCall
	}
	calls := map[string]pending{}
	var out []Lookup
	round := 0
	for _, m := range messages[start:] {
		switch {
		case m.Role == provider.RoleAssistant && len(m.ToolCalls) > 0:
			round++
			for _, c := range m.ToolCalls {
				calls[c.ID] = pending{round: round, call: c}
			}
		case m.Role == provider.RoleTool:
			p, ok := calls[m.ToolCallID]
			if !ok {
				continue
			}
			delete(calls, m.ToolCallID)
			if strings.HasPrefix(p.call.Name, "propose_") {
				continue
			}
			out = append(out, lookupOf(b, p.round, p.call, m.Content))
		}
	}
	return out
}

func lookupOf(b *Book, round int, call provider.ToolCall, envelope string) Lookup {
	l := Lookup{Round: round, Tool: call.Name}
	var args struct {
		Ref       *string  `json:"ref"`
		Refs      []string `json:"refs"`
		Name      string   `json:"name"`
		Query     string   `json:"query"`
		EntryType string   `json:"entryType"`
	}
	if json.Unmarshal([]byte(call.Arguments), &args) == nil {
		if args.Ref != nil {
			l.Ref = boundRunes(*args.Ref)
		} else if len(args.Refs) > 0 {
			l.Ref = boundRunes(strings.Join(args.Refs, ", "))
		}
		l.Name = boundRunes(args.Name)
		l.Query = boundRunes(args.Query)
		l.EntryType = boundRunes(args.EntryType)
	}
	var env struct {
		OK     bool                 `json:"ok"`
		Data   json.RawMessage      `json:"data"`
		Errors []toolloop.ToolError `json:"errors"`
	}
	if err := json.Unmarshal([]byte(envelope), &env); err != nil {
		l.Code = toolloop.CodeToolFailed
		return l
	}
	l.OK = env.OK
	if len(env.Errors) > 0 {
		l.Code = env.Errors[0].Code
	}
	if !env.OK || len(env.Data) == 0 {
		return l
	}
	switch {
	case call.Name == "get_manuscript_context":
		var data struct {
			Units []struct {
				Kind string `json:"kind"`
				Path string `json:"path"`
				Hash string `json:"hash"`
				Text string `json:"text"`
			} `json:"units"`
		}
		if json.Unmarshal(env.Data, &data) != nil {
			return l
		}
		for _, u := range data.Units {
			l.add(u.Path, unitHash(b, u.Kind, u.Path, u.Hash, u.Text))
		}
	case call.Name == "search_codex" || call.Name == "list_codex_entries":
		var data struct {
			Results []struct {
				RelativePath string `json:"relativePath"`
			} `json:"results"`
			Entries []struct {
				RelativePath string `json:"relativePath"`
			} `json:"entries"`
		}
		if json.Unmarshal(env.Data, &data) != nil {
			return l
		}
		for _, r := range append(data.Results, data.Entries...) {
			if len(l.Paths) == maxEvidencePaths {
				break
			}
			l.add(r.RelativePath, entryHash(b, r.RelativePath))
		}
	case strings.HasPrefix(call.Name, "get_") && strings.HasSuffix(call.Name, "_context"):
		var data struct {
			RelativePath string `json:"relativePath"`
		}
		if json.Unmarshal(env.Data, &data) == nil && data.RelativePath != "" {
			l.add(data.RelativePath, entryHash(b, data.RelativePath))
		}
	}
	return l
}

func (l *Lookup) add(path, hash string) {
	if path == "" {
		return
	}
	l.Paths = append(l.Paths, path)
	l.Hashes = append(l.Hashes, hash)
}

// unitHash is the hash of a manuscript unit's prose as the tool read it,
// before truncation: a selection carries its own; a chapter or document
// is hashed from the snapshot the turn read; failing that, the text the
// model got is hashed.
func unitHash(b *Book, kind, path, hash, text string) string {
	if hash != "" {
		return hash
	}
	if snap := b.snapshot(); kind != manuscript.KindSelection && snap != nil {
		if u, ok := snap.Unit(path); ok {
			return manuscript.HashText(u.BodyText())
		}
	}
	return manuscript.HashText(text)
}

// entryHash is the hash of a codex entry file's source, "" when the entry
// is not in the catalog.
func entryHash(b *Book, rel string) string {
	if b == nil || b.Store == nil {
		return ""
	}
	if e, ok := b.Store.Catalog().Get(rel); ok {
		return manuscript.HashText(e.Source)
	}
	return ""
}

func boundRunes(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= maxEvidenceArgRunes {
		return s
	}
	r := []rune(s)
	return string(r[:maxEvidenceArgRunes-1]) + "…"
}
