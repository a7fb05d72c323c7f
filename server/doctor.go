package server

import (
	"context"
	"fmt"
	"os"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex/count"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/health"
	"github.com/quire-ink/quire/server/wire"
)

// The health report in the editor: quire/doctor answers it as data (the
// report `quire doctor --json` prints), and the quire.doctor command,
// also a code action in every Markdown file of a book, shows it: as a
// Markdown document where the client opens one, else as one message,
// problems first, for Helix and eglot.

// doctorActionTitle is the code action that shows the report.
const doctorActionTitle = "quire: Show health report"

// doctorReport builds the health report of the book holding a.URI (the
// first book without one), with the provider settings an ask would use:
// the editor's over the files'.
func (s *Server) doctorReport(ctx context.Context, a wire.BookParams) (health.Report, error) {
	proj, err := s.projectOf(ctx, a)
	if err != nil {
		return health.Report{}, err
	}
	s.refreshTrust(ctx, proj)
	version := s.opts.Version
	if version == "" {
		version = "devel"
	}
	o := health.Options{
		Binary: health.Binary{Path: health.Executable(), Version: "quire " + version},
		Root:   proj.real,
		Found:  "as the editor's workspace folder",
		Trust:  proj.trust,
		Keys:   llm.KeyFinder{Getenv: os.Getenv, Stored: s.opts.Keys},
		// With no provider, the report names the models running here.
		LocalModels: &s.opts.LocalModels,
	}
	if proj.real != proj.root {
		o.Found = "in the editor's workspace folder " + proj.root
	}
	if l, err := settings.Load(proj.sources()); err == nil {
		o.Settings = l
	}
	ps := s.clientCfg.settings().Provider.onto(proj.configOf().provider)
	o.Provider = &ps
	series := proj.seriesStore()
	o.SeriesRead = series != nil
	ix := &health.Index{CacheDir: proj.cache.Dir, Locked: proj.locked, Fallback: proj.store.Fallback(),
		Building: proj.store.IndexBuilding(), Entries: proj.store.Catalog().Len()}
	rep := proj.store.Report()
	ix.Rebuilt, ix.Reason = rep.Rebuilt, rep.Reason
	o.Index = ix
	return health.Build(ctx, o), nil
}

// quireDoctor answers quire/doctor.
func (s *Server) quireDoctor(ctx context.Context, a wire.BookParams) (wire.DoctorResult, error) {
	r, err := s.doctorReport(ctx, a)
	if err != nil {
		return wire.DoctorResult{}, err
	}
	return doctorResult(r), nil
}

// quireDoctorCommand runs quire.doctor: it shows the report and answers
// it as quire/doctor does.
func (s *Server) quireDoctorCommand(ctx context.Context, a wire.BookParams) (wire.DoctorResult, error) {
	r, err := s.doctorReport(ctx, a)
	if err != nil {
		return wire.DoctorResult{}, err
	}
	worst := r.WorstFirst()
	// The heading counts what is wrong: a status line that shows one line
	// (Helix joins the lines and cuts them at the window's width) still
	// says how many problems there are, the first of them after it. The
	// space before each line break keeps the joined lines apart.
	msg := "quire health report, " + tally(r) + ": \n" + strings.ReplaceAll(strings.TrimRight(worst.Text(), "\n"), "\n", " \n")
	typ := protocol.MessageTypeInfo
	switch {
	case r.HasProblem():
		typ = protocol.MessageTypeError
	case len(worst.Checks) > 0 && worst.Checks[0].Status == health.Warning:
		typ = protocol.MessageTypeWarning
	}
	if s.showDocumentSupported() {
		if path, err := s.writeCacheDoc("health", "quire-health", ".md", doctorMarkdown(r)); err == nil && s.showDocument(ctx, s.names.URI(path)) {
			return doctorResult(r), nil
		}
	}
	s.showMessage(ctx, typ, msg)
	return doctorResult(r), nil
}

// doctorMarkdown is the report as the document the command opens.
func doctorMarkdown(r health.Report) string {
	var b strings.Builder
	b.WriteString("# quire health report\n\n")
	if r.HasProblem() {
		b.WriteString("Something needs your attention (" + tally(r) + "): each problem says what to do.\n\n")
	}
	b.WriteString("| | check | what quire found | what to do |\n|---|---|---|---|\n")
	for _, c := range r.WorstFirst().Checks {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Status, c.Name, mdCell(c.Detail), mdCell(c.Fix))
	}
	return b.String()
}

// mdCell keeps a table cell on its line.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func doctorResult(r health.Report) wire.DoctorResult {
	out := wire.DoctorResult{Checks: make([]wire.DoctorCheck, 0, len(r.Checks))}
	for _, c := range r.Checks {
		out.Checks = append(out.Checks, wire.DoctorCheck{Name: c.Name, Status: string(c.Status), Detail: c.Detail, Fix: c.Fix, System: c.System})
	}
	return out
}

// doctorAction is the code action that shows the report of the book
// holding uri.
func doctorAction(uri protocol.DocumentURI) codeAction {
	return codeAction{Title: doctorActionTitle, Command: &actionCommand{Title: doctorActionTitle, Command: wire.CommandDoctor,
		Arguments: []any{wire.BookParams{URI: uri}}}}
}

// tally is how many problems and warnings r has, in words.
func tally(r health.Report) string {
	var problems, warnings int
	for _, c := range r.Checks {
		switch c.Status {
		case health.Problem:
			problems++
		case health.Warning:
			warnings++
		}
	}
	if problems+warnings == 0 {
		return "all is well"
	}
	var parts []string
	if problems > 0 {
		parts = append(parts, count.Of(problems, "problem"))
	}
	if warnings > 0 {
		parts = append(parts, count.Of(warnings, "warning"))
	}
	return strings.Join(parts, ", ")
}
