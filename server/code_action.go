package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
)

// The document-change shapes a create-file edit needs; protocol v0.12.0
// types documentChanges as text edits only.
type createFile struct {
	Kind    string                      `json:"kind"`
	URI     protocol.DocumentURI        `json:"uri"`
	Options *protocol.CreateFileOptions `json:"options,omitempty"`
}

type newFileEdit struct {
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

type fileWorkspaceEdit struct {
	DocumentChanges []any `json:"documentChanges"`
}

type codeAction struct {
	Title       string                  `json:"title"`
	Kind        protocol.CodeActionKind `json:"kind"`
	Diagnostics []protocol.Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool                    `json:"isPreferred,omitempty"`
	Edit        *fileWorkspaceEdit      `json:"edit,omitempty"`
}

// newEntryTypes are offered for an untracked name, the likeliest first.
var newEntryTypes = []codex.Type{codex.TypeCharacter, codex.TypeLocation, codex.TypeOrganization}

// codeAction offers, for each untracked-name diagnostic in range, to
// create a codex entry for the name: a new file from a template, as an
// edit the writer reviews. An entry file that already exists is never
// overwritten.
func (s *Server) codeAction(ctx context.Context, params json.RawMessage) (any, error) {
	p, err := decode[protocol.CodeActionParams](params)
	if err != nil {
		return nil, err
	}
	actions := []codeAction{}
	file, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return actions, nil
	}
	proj, _, ok := s.projectFor(file)
	if !ok || proj.wait(ctx) != nil {
		return actions, nil
	}
	for _, d := range p.Context.Diagnostics {
		if d.Code != codeUntrackedName {
			continue
		}
		var data untrackedData
		if raw, err := json.Marshal(d.Data); err != nil || json.Unmarshal(raw, &data) != nil || data.Name == "" {
			continue
		}
		for i, t := range newEntryTypes {
			rel := path.Join("codex", t.Plural(), slug(data.Name)+".md")
			uri := proj.uri(rel)
			create := createFile{Kind: "create", URI: uri, Options: &protocol.CreateFileOptions{IgnoreIfExists: true}}
			fill := newFileEdit{Edits: []protocol.TextEdit{{NewText: entryTemplate(t, data.Name)}}}
			fill.TextDocument.URI = uri
			actions = append(actions, codeAction{
				Title:       fmt.Sprintf("Create %s entry for %s", t, data.Name),
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{d},
				IsPreferred: i == 0,
				Edit:        &fileWorkspaceEdit{DocumentChanges: []any{create, fill}},
			})
		}
	}
	return actions, nil
}

// entryTemplate is the start of a new entry: front matter the writer
// fills in, and the headings an entry of the type usually has.
func entryTemplate(t codex.Type, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntype: %s\nname: %s\naliases: []\nsummary: \nstatus: tentative\n---\n# %s\n\n", t, yamlScalar("", name), name)
	switch t {
	case codex.TypeCharacter:
		b.WriteString("## Appearance\n\n## Personality\n\n## History\n")
	case codex.TypeLocation:
		b.WriteString("## Description\n\n## History\n")
	default:
		b.WriteString("## Description\n")
	}
	return b.String()
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug makes a file name of a name: "Port Caddow" → "port-caddow".
func slug(name string) string {
	s := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(codex.Fold(name)), "-"), "-")
	if s == "" {
		s = "entry"
	}
	return s
}
