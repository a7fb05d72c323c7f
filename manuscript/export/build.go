package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quire-ink/quire/codex/safefile"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/manuscript"
)

// Request is one build as the command line and the editors ask for it.
type Request struct {
	// Format is docx, epub, md or html; empty is docx.
	Format string `json:"format,omitempty"`
	// Preset is manuscript or reader; empty is the format's default.
	Preset string `json:"preset,omitempty"`
	// Chapters name the chapters to build (a path, number or title, as
	// quire context reads them); none is the whole manuscript.
	Chapters []string `json:"chapters,omitempty"`
	// Out is the file to write; empty is a file named for the book in
	// Dir.
	Out string `json:"out,omitempty"`
}

// Result says what a build wrote.
type Result struct {
	Path     string `json:"path"`
	Format   Format `json:"format"`
	Preset   Preset `json:"preset"`
	Chapters int    `json:"chapters"`
	Words    int    `json:"words"`
	Bytes    int    `json:"bytes"`
	// Warnings are what the writer should know of a build that was
	// written all the same: a setting left unset that the manuscript
	// shows a placeholder for, a book's output folder set aside.
	Warnings []string `json:"warnings,omitempty"`
}

// Target is the book a build reads and where it may write.
type Target struct {
	// Root is the book's folder, its real path.
	Root     string
	Snapshot *manuscript.Snapshot
	Settings *settings.Loaded
	// Cache is the book's build folder in quire's cache: where a file
	// goes that the request does not name when no setting names a
	// folder and the writer has no Documents folder (OutputFolder).
	Cache string
	// Trust is the record of trusted books: a book's own build: output
	// outside the book applies once the writer trusted the book. nil
	// trusts no book.
	Trust *trust.Store
}

// ErrSettings is the error of a build the book's settings keep from
// being drawn; the error's text lists the problems.
var ErrSettings = errors.New("the book's settings are not complete for this build")

// Build reads the chapters the request names (all, in reading order,
// when none) and writes them in its format and preset.
func Build(ctx context.Context, t Target, req Request) (Result, error) {
	format := DOCX
	if req.Format != "" {
		f, err := ParseFormat(req.Format)
		if err != nil {
			return Result{}, err
		}
		format = f
	}
	preset, err := ParsePreset(req.Preset, format)
	if err != nil {
		return Result{}, err
	}
	s, problems := ReadSettings(t.Settings, t.Root)
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.Error()
		}
		return Result{}, fmt.Errorf("%w:\n  %s", ErrSettings, strings.Join(msgs, "\n  "))
	}
	var warnings []string
	for _, p := range s.Missing(preset) {
		warnings = append(warnings, p.Error())
	}
	units, err := chapters(t.Snapshot, req.Chapters)
	if err != nil {
		return Result{}, err
	}
	if len(units) == 0 {
		return Result{}, fmt.Errorf("the book has no chapters to build")
	}
	if w := runTogether(units); w != "" {
		warnings = append(warnings, w)
	}
	if w := s.guessLanguage(units); w != "" {
		warnings = append(warnings, w)
	}
	book, err := Read(ctx, units, ReadOptions{Dashes: s.Dashes})
	if err != nil {
		return Result{}, err
	}
	out := req.Out
	if out == "" {
		where, err := OutputFolder(t, s)
		if err != nil {
			return Result{}, err
		}
		warnings = append(warnings, where.Warnings...)
		out = filepath.Join(where.Dir, FileName(s.Title, format, preset))
	}
	var buf bytes.Buffer
	err = Write(&buf, book, Options{Format: format, Preset: preset, Settings: s, Modified: modified(t.Root, units)})
	if err != nil {
		return Result{}, fmt.Errorf("build %s: %w", format, err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return Result{}, fmt.Errorf("build: %w", err)
	}
	if err := safefile.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return Result{}, fmt.Errorf("build: %w", err)
	}
	return Result{Path: out, Format: format, Preset: preset, Chapters: len(units), Words: book.Words, Bytes: buf.Len(), Warnings: warnings}, nil
}

// chapters are the units refs name, in reading order; every chapter when
// refs is empty.
func chapters(snap *manuscript.Snapshot, refs []string) ([]*manuscript.Unit, error) {
	if len(refs) == 0 {
		// A manuscript with holes is no manuscript to send: a chapter
		// quire could not read, or one only a cloud placeholder here,
		// stops the build with what to do.
		if missing := missingChapters(snap); len(missing) > 0 {
			return nil, fmt.Errorf("the book's manuscript is not whole, so quire builds none of it:\n  %s", strings.Join(missing, "\n  "))
		}
		// A document the editor has open outside the manuscript has no
		// place in reading order, and no place in the book.
		var all []*manuscript.Unit
		for _, u := range snap.Units() {
			if u.Position > 0 {
				all = append(all, u)
			}
		}
		return all, nil
	}
	var units []*manuscript.Unit
	for _, ref := range refs {
		u, err := snap.Resolve(ref, manuscript.Place{})
		if err != nil {
			return nil, err
		}
		if !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	slices.SortStableFunc(units, func(a, b *manuscript.Unit) int { return a.Position - b.Position })
	return units, nil
}

// missingChapters are the chapters of the manuscript a build would
// leave out, each with why.
func missingChapters(snap *manuscript.Snapshot) []string {
	var out []string
	for _, rel := range snap.NotDownloaded() {
		out = append(out, rel+": not downloaded to this computer (a cloud placeholder); download it first")
	}
	for _, p := range snap.Unreadable() {
		out = append(out, p.Path+": "+p.Message)
	}
	return out
}

// modified is the EPUB's date: SOURCE_DATE_EPOCH when set (reproducible
// builds' convention), else the newest chapter's modification time, so
// that the same book gives the same bytes.
func modified(root string, units []*manuscript.Unit) time.Time {
	var newest time.Time
	for _, u := range units {
		if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(u.Path))); err == nil && info.ModTime().After(newest) {
			newest = info.ModTime()
		}
	}
	return sourceDate(newest)
}

// FileName is the file a build writes when none is named: the title as
// a file name, with the preset when it is not the format's default.
func FileName(title string, f Format, p Preset) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r == '/' || r == '\\' || r == ':' || r < 0x20 || strings.ContainsRune(`*?"<>|`, r) || r == ' ' || r == '-' || r == '.':
			if sb.Len() > 0 && !dash {
				sb.WriteByte('-')
				dash = true
			}
		default:
			sb.WriteRune(r)
			dash = false
		}
	}
	name := strings.Trim(sb.String(), "-")
	if name == "" {
		name = "manuscript"
	}
	// Windows keeps these names for devices, whatever the extension.
	switch name {
	case "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
		"lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9":
		name += "-book"
	}
	if p != DefaultPreset(f) {
		name += "-" + string(p)
	}
	return name + f.Ext()
}
