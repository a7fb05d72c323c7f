package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/outline"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// quireOutline answers quire/outline: the outline `quire outline --json`
// prints, of the book of the params' document, with the editor's text
// of its open chapters.
func (s *Server) quireOutline(ctx context.Context, p wire.OutlineParams) (wire.Outline, error) {
	proj, err := s.projectOf(ctx, p.BookParams)
	if err != nil {
		return wire.Outline{}, err
	}
	cfg := proj.configOf()
	o, err := outline.Build(ctx, proj.ms.Snapshot(), proj.catalog(), outline.Options{
		Settings: cfg.outline, Dialogue: cfg.dialogue, Speakers: p.Speakers,
		From: p.From, To: p.To, POV: p.POV, Status: p.Status, Names: proj.matcher.Load(),
	})
	if err != nil {
		return wire.Outline{}, err
	}
	return wire.OutlineOf(o, func(path string) string { return string(proj.uri(path)) }), nil
}

// outlineTarget is a chapter as the writer has it now, for an edit of
// its outline.
type outlineTarget struct {
	proj *openBook
	rel  string
	cur  fileText
	unit *manuscript.Unit
}

// outlineTargetOf finds the chapter uri names.
func (s *Server) outlineTargetOf(ctx context.Context, uri string) (outlineTarget, error) {
	var t outlineTarget
	file, ok := textdoc.URIPath(protocol.DocumentURI(uri))
	if !ok {
		return t, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%q is no file", uri))
	}
	proj, rel, ok := s.projectFor(file)
	if !ok {
		return t, jsonrpc2.NewError(jsonrpc2.InvalidParams, "that file is in no book quire has open")
	}
	if err := s.ready(ctx, proj); err != nil {
		return t, err
	}
	if !proj.ms.IsChapter(rel) {
		return t, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s is not a chapter of the book, so it has no scenes to outline", rel))
	}
	cur, err := s.currentText(proj, rel)
	if err != nil || !cur.exists {
		return t, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s cannot be read", rel))
	}
	u := manuscript.NewUnit(rel, cur.text, 0)
	if u.Text != cur.text {
		// Invalid bytes or lone carriage returns: offsets into the unit's
		// text would not fall where the editor's are.
		return t, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s has bytes quire reads differently from your editor; save it as UTF-8 first", rel))
	}
	return outlineTarget{proj: proj, rel: rel, cur: cur, unit: u}, nil
}

// outlineFields are the fields p sets.
func outlineFields(p wire.SetOutlineParams, t outlineTarget) ([]manuscript.Field, error) {
	var fields []manuscript.Field
	for _, f := range []struct {
		key   string
		value *string
	}{{"synopsis", p.Synopsis}, {"status", p.Status}, {"title", p.Title}, {"pov", p.POV}, {"day", p.Day}, {"location", p.Location}} {
		if f.value != nil {
			fields = append(fields, manuscript.Field{Key: f.key, Value: *f.value})
		}
	}
	if p.Current {
		rules := t.proj.configOf().outline.Rules
		note, _, ok := t.unit.NoteOf(rules, p.Scene)
		if !ok || note.Synopsis == "" {
			return nil, fmt.Errorf("there is no synopsis to mark current in %s", sceneName(t.unit, rules, p.Scene))
		}
		fields = append(fields, manuscript.Field{Key: "synopsis", Value: note.Synopsis})
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("nothing to set: give a synopsis, status, title, pov, day or location")
	}
	return fields, nil
}

// sceneName names scene n of u for the writer: "Ledgers (scene 2 of The
// Vault)", or the chapter.
func sceneName(u *manuscript.Unit, rules manuscript.SceneRules, n int) string {
	scenes := u.Scenes(rules)
	if n <= 0 || n > len(scenes) {
		return "the chapter " + u.Title
	}
	s := scenes[n-1]
	if s.Title() == fmt.Sprintf("Scene %d", n) {
		return fmt.Sprintf("scene %d of %s", n, u.Title)
	}
	return fmt.Sprintf("%s (scene %d of %s)", s.Title(), n, u.Title)
}

// setOutline is quire.setOutline: the edit that sets a scene's or
// chapter's fields, sent to the editor as a versioned workspace edit;
// quire writes nothing. The writer hears the outcome.
func (s *Server) setOutline(ctx context.Context, p wire.SetOutlineParams) (wire.SetOutlineResult, error) {
	t, err := s.outlineTargetOf(ctx, p.URI)
	if err != nil {
		return wire.SetOutlineResult{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "Not set: "+errMessage(err))
	}
	fields, err := outlineFields(p, t)
	if err != nil {
		return wire.SetOutlineResult{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "Not set: "+err.Error()+".")
	}
	rules := t.proj.configOf().outline.Rules
	e, err := t.unit.SetOutline(rules, p.Scene, fields...)
	if err != nil {
		return wire.SetOutlineResult{}, s.outcome(ctx, true, protocol.MessageTypeWarning, jsonrpc2.InvalidParams, "Not set: "+err.Error()+".")
	}
	what := sceneName(t.unit, rules, p.Scene)
	if e.Apply(t.unit.Text) == t.unit.Text {
		msg := fmt.Sprintf("Nothing to change: %s already says so.", what)
		s.showMessage(ctx, protocol.MessageTypeInfo, msg)
		return wire.SetOutlineResult{Applied: false, Message: msg}, nil
	}
	edit := workspaceEdit{DocumentChanges: []any{textDocumentEdit{
		TextDocument: versionedDocument{URI: t.cur.uri, Version: t.cur.version},
		Edits:        []annotatedTextEdit{{Range: t.cur.lines.RangeOf(e.Range.Start, e.Range.End), NewText: e.NewText}},
	}}}
	res, err := s.applyEdit(ctx, "quire: outline of "+what, edit)
	if err != nil {
		s.log.Warn("workspace/applyEdit failed", "err", err)
		return wire.SetOutlineResult{}, s.outcome(ctx, true, protocol.MessageTypeError, jsonrpc2.InternalError,
			fmt.Sprintf("The editor could not change %s. Try again, or run quire outline set and apply its change by hand.", t.rel))
	}
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
	}
	typ, msg := protocol.MessageTypeInfo, fmt.Sprintf("Set the %s of %s: review and save.", strings.Join(keys, ", "), what)
	if p.Current && len(fields) == 1 {
		msg = fmt.Sprintf("Marked the synopsis of %s as current: review and save.", what)
	}
	if !res.Applied {
		typ, msg = protocol.MessageTypeWarning, fmt.Sprintf("Not set: the editor did not change %s", t.rel)
		if res.FailureReason != "" {
			msg += " (" + res.FailureReason + ")"
		}
		msg += "."
	}
	s.showMessage(ctx, typ, msg)
	return wire.SetOutlineResult{Applied: res.Applied, Message: msg}, nil
}

// errMessage is an error's message as a sentence for the writer.
func errMessage(err error) string {
	msg := err.Error()
	if je := (*jsonrpc2.Error)(nil); errors.As(err, &je) {
		msg = je.Message
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}
