package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/manuscript/export"
	"github.com/quire-ink/quire/server/wire"
)

// quire.build: the manuscript made into a DOCX, an EPUB, or one Markdown
// or HTML file (manuscript/export), written to the folder
// export.OutputFolder chooses (build: output, else the writer's
// Documents folder, else quire's cache; never into the book unless the
// writer named a folder there), and told in a window/showMessage naming
// the file last, which every client shows (Helix and eglot have no
// other way to hear it). The chapters are the editor's text where open.

// Titles of the code actions that run quire.build.
const (
	buildDOCXTitle = "quire: Build manuscript (DOCX)"
	buildEPUBTitle = "quire: Build EPUB"
)

// quireBuild runs quire.build.
func (s *Server) quireBuild(ctx context.Context, a wire.BuildParams) (wire.BuildResult, error) {
	proj, err := s.projectOf(ctx, a.BookParams)
	if err != nil {
		return wire.BuildResult{}, err
	}
	l, err := settings.Load(proj.sources())
	if err != nil {
		return wire.BuildResult{}, fmt.Errorf("build: %w", err)
	}
	res, err := export.Build(ctx, export.Target{Root: proj.real, Snapshot: proj.ms.Snapshot(), Settings: l, Cache: proj.cache.Builds(), Trust: s.trust},
		export.Request{Format: a.Format, Preset: a.Preset, Chapters: a.Chapters})
	if err != nil {
		// executeCommand shows the error as the message the writer reads:
		// what to fix, each problem of the settings on a line of its own
		// (a space before each line break keeps a joined status line
		// apart).
		msg := "quire could not build the manuscript: " + strings.ReplaceAll(err.Error(), "\n  ", " \n")
		return wire.BuildResult{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, msg)
	}
	out := wire.BuildResult{Path: res.Path, URI: s.names.URI(res.Path), Format: string(res.Format), Preset: string(res.Preset),
		Chapters: res.Chapters, Words: res.Words, Bytes: res.Bytes, Warnings: res.Warnings}
	if a.Quiet {
		return out, nil
	}
	s.showMessage(ctx, buildMessageType(res), BuildMessage(res))
	return out, nil
}

// BuildMessage is what a writer reads of a build: what was built, any
// warning, and the file's path last, as quire build prints it.
func BuildMessage(res export.Result) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "quire built %s (%s, %s preset, %s, %s)", buildWhat(res.Format), strings.ToUpper(string(res.Format)),
		res.Preset, count.Of(res.Chapters, "chapter"), export.RoundedWords(res.Words))
	for _, w := range res.Warnings {
		sb.WriteString(". Warning: " + w)
	}
	if len(res.Warnings) > 0 {
		sb.WriteString(". The file")
	}
	sb.WriteString(": " + res.Path)
	return sb.String()
}

// buildMessageType is a warning when the build has warnings.
func buildMessageType(res export.Result) protocol.MessageType {
	if len(res.Warnings) > 0 {
		return protocol.MessageTypeWarning
	}
	return protocol.MessageTypeInfo
}

// buildWhat names what a format makes, for the message.
func buildWhat(f export.Format) string {
	switch f {
	case export.EPUB:
		return "the e-book"
	case export.DOCX:
		return "the manuscript"
	}
	return "the book as one file"
}

// buildActions offer the two builds a writer sends out, at a chapter's
// heading or front matter (where the map is offered too), so that prose
// keeps its list of actions short.
func (s *Server) buildActions(ctx context.Context, p protocol.CodeActionParams, proj *openBook, rel string) []codeAction {
	if !proj.ms.IsChapter(rel) {
		return nil
	}
	t, ok, err := s.resolveTarget(ctx, protocol.TextDocumentPositionParams{TextDocument: p.TextDocument, Position: p.Range.Start})
	if err != nil || !ok || t.proj != proj {
		return nil
	}
	start, _, err := t.lines.RangeOffsets(p.Range)
	if err != nil || !atTitle(t.text, start) {
		return nil
	}
	action := func(title, format string) codeAction {
		return codeAction{Title: title, Command: &actionCommand{Title: title, Command: wire.CommandBuild,
			Arguments: []any{wire.BuildParams{BookParams: wire.BookParams{URI: p.TextDocument.URI}, Format: format}}}}
	}
	return []codeAction{action(buildDOCXTitle, "docx"), action(buildEPUBTitle, "epub")}
}
