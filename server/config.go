package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/actions"
	"github.com/quire-ink/quire/llm/advisor"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/export"
	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/server/textdoc"
)

// configFile is the project's settings file, at its root.
const configFile = settings.Name

// bookConfig is what a book's quire.yaml says, as the server uses it.
// A project keeps the last good one: a quire.yaml that does not read is
// reported on the file itself and changes nothing until it is fixed.
type bookConfig struct {
	settings advisor.Settings
	provider endpoint.ProviderSettings
	globs    []string
	// codexGlobs restrict where codex entries are (none: everywhere).
	codexGlobs []string
	// mcpServers are the MCP servers whose tools personas may be given.
	mcpServers map[string]llm.MCPServer
	// wants are the book's own settings that reach beyond it, and
	// ignored says they were set aside because the writer has not
	// trusted them (trust.go).
	wants   trust.Reach
	ignored bool
	// continuity is which fields are traits and how each continuity
	// check reports (traits:, checks:).
	continuity continuity.Options
	// goals are the word goals (goals:, docs/goals.md).
	goals goals.Settings
	// series is the series folder as quire.yaml names it, once trusted
	// (it reaches outside the book); "" otherwise.
	series string
	// dialogue is the book's convention for speech (dialogue:).
	dialogue dialogue.Options
	// outline is where the book's scenes break, its statuses and acts
	// (outline:, docs/outline.md).
	outline manuscript.OutlineSettings
}

// configProblem is one thing wrong with a quire.yaml, at a line (1-based;
// 0 when the reader did not say).
type configProblem struct {
	line     int
	message  string
	severity protocol.DiagnosticSeverity
	// local marks an error that sets aside only its own part (one advisor
	// action), not the whole file.
	local bool
}

// parseBookConfig reads the text of a quire.yaml. Errors reject the whole
// file; warnings (an unknown key) do not.
func parseBookConfig(data []byte) (bookConfig, []configProblem) {
	return bookConfigOf(settings.Parse(settings.Name, data))
}

// bookConfigOf hands each section of a parsed quire.yaml to its owner.
// Every problem carries its position as data (settings.Problem).
func bookConfigOf(f *settings.File) (bookConfig, []configProblem) {
	var c bookConfig
	var problems []configProblem
	fail := func(err error) {
		line, _ := settings.Position(err)
		problems = append(problems, configProblem{line: line, message: err.Error(), severity: protocol.DiagnosticSeverityError})
	}
	if f.Err != nil {
		fail(f.Err)
		return c, problems
	}
	if p := f.NotMapping(); p != nil {
		fail(p)
		return c, problems
	}
	for _, p := range f.UnknownKeys() {
		problems = append(problems, configProblem{line: p.Line, severity: protocol.DiagnosticSeverityWarning, message: p.Error()})
	}
	var err error
	if c.settings, err = advisor.SettingsFrom(f, llm.PersonaIDs()); err != nil {
		fail(err)
	}
	if c.provider, err = endpoint.ProviderFrom(f); err != nil {
		fail(err)
	}
	if c.globs, err = manuscript.GlobsFromNode(f.Value("manuscript")); err != nil {
		fail(err)
	}
	if c.codexGlobs, err = codex.GlobsFromNode(f.Value("codex")); err != nil {
		fail(err)
	}
	if c.series, err = codex.SeriesFromNode(f.Value("series")); err != nil {
		fail(err)
	}
	if f.Top() != nil {
		if c.mcpServers, err = endpoint.ParseMCPServers(f.Value("mcp_servers")); err != nil {
			fail(err)
		}
		// A bad action is left out on its own; the rest of the file stands.
		problems = append(problems, actionConfigProblems(actions.SettingsProblems(f))...)
		// A bad traits: or checks: is set aside on its own, the defaults
		// in its place.
		var storyProblems []*settings.Problem
		c.continuity, storyProblems = continuity.OptionsFrom(&settings.Loaded{Book: f, User: &settings.File{}})
		for _, p := range storyProblems {
			problems = append(problems, configProblem{line: p.Line, message: p.Error(), severity: protocol.DiagnosticSeverityWarning, local: true})
		}
		problems = append(problems, goalProblems(&c, f)...)
		// A bad build: value stops only quire build, which says so too.
		_, buildProblems := export.ReadSettings(&settings.Loaded{Book: f, User: &settings.File{}}, "")
		for _, p := range buildProblems {
			problems = append(problems, configProblem{line: p.Line, message: p.Error(), severity: protocol.DiagnosticSeverityWarning, local: true})
		}
		// A bad dialogue: value leaves the convention to detection.
		_, dialogueProblems := dialogue.ReadSettings(&settings.Loaded{Book: f, User: &settings.File{}})
		for _, p := range dialogueProblems {
			problems = append(problems, configProblem{line: p.Line, message: p.Error(), severity: protocol.DiagnosticSeverityWarning, local: true})
		}
		// A bad outline: value leaves its setting at the default.
		_, outlineProblems := manuscript.ReadOutlineSettings(&settings.Loaded{Book: f, User: &settings.File{}})
		for _, p := range outlineProblems {
			problems = append(problems, configProblem{line: p.Line, message: p.Error(), severity: protocol.DiagnosticSeverityWarning, local: true})
		}
	}
	return c, problems
}

// actionConfigProblems are the problems of the advisor actions defined
// in a settings file, as problems of that file.
func actionConfigProblems(problems []actions.Problem) []configProblem {
	var out []configProblem
	for _, p := range problems {
		severity := protocol.DiagnosticSeverityWarning
		if p.Severity == actions.SeverityError {
			severity = protocol.DiagnosticSeverityError
		}
		out = append(out, configProblem{line: p.Line, message: p.String(), severity: severity, local: true})
	}
	return out
}

// hasErrors reports whether problems reject the file.
func hasErrors(problems []configProblem) bool {
	return slices.ContainsFunc(problems, func(p configProblem) bool { return p.severity == protocol.DiagnosticSeverityError && !p.local })
}

// readConfig reads root's quire.yaml from disk, over the user's own
// config.yaml; no file is the empty configuration. The problems are the
// book file's. A user file that does not read is left out, and userErr
// says why. The book's settings that reach beyond it apply only when
// store trusts them (endpoint.BookReach.Guard).
func readConfig(src settings.Sources, root string, store *trust.Store) (c bookConfig, problems []configProblem, userErr, err error) {
	l, err := settings.Load(src)
	if err != nil {
		return c, nil, nil, err
	}
	c, problems, userErr = layerConfig(l, root, store)
	return c, problems, userErr, nil
}

// layerConfig is the configuration of loaded settings files: the book's
// over the user's, the book's reach guarded by store.
func layerConfig(l *settings.Loaded, root string, store *trust.Store) (c bookConfig, problems []configProblem, userErr error) {
	var user bookConfig
	if l.UserErr != nil {
		userErr = l.UserErr
	} else if l.User.Text != nil {
		var userProblems []configProblem
		user, userProblems = bookConfigOf(l.User)
		if hasErrors(userProblems) {
			user, userErr = bookConfig{}, fmt.Errorf("%s is not used: %s", l.User.Name, firstError(userProblems))
		}
	}
	c, problems = bookConfigOf(l.Book)
	if hasErrors(problems) {
		return c, problems, userErr
	}
	book := endpoint.BookReach{Provider: c.provider, MCPServers: c.mcpServers, Series: c.series, BuildOutput: trust.BuildOutputOf(l.Book)}
	c.wants = book.Wants()
	guarded, ignored, terr := book.Guard(root, store)
	c.provider, c.mcpServers, c.series, c.ignored = guarded.Provider, guarded.MCPServers, guarded.Series, len(ignored) > 0
	if terr != nil && userErr == nil {
		userErr = terr
	}
	c.settings = user.settings.Under(c.settings)
	c.provider = user.provider.Under(c.provider)
	if len(c.globs) == 0 {
		c.globs = user.globs
	}
	if len(c.codexGlobs) == 0 {
		c.codexGlobs = user.codexGlobs
	}
	// traits: and checks: are the book's when it sets them, else the
	// writer's config.yaml's. The book's problems are on quire.yaml
	// already (bookConfigOf); what the writer's file sets that cannot be
	// used is told as that file's, in the message a config.yaml that is
	// not used gets, since no open document shows it.
	var storyProblems []*settings.Problem
	c.continuity, storyProblems = continuity.OptionsFrom(l)
	for _, p := range storyProblems {
		if p.File != settings.Name {
			userErr = errors.Join(userErr, p)
		}
	}
	// goals: is read key by key over both files (daily and days may be
	// the writer's own habits); as for traits:, what the writer's file
	// sets that cannot be used is told as that file's.
	// dialogue: is the book's, else the writer's; a bad value leaves
	// the convention to detection, its problem told on quire.yaml.
	c.dialogue, _ = dialogue.ReadSettings(l)
	// outline: likewise, the book's else the writer's.
	c.outline, _ = manuscript.ReadOutlineSettings(l)
	var goalProblems []*settings.Problem
	c.goals, goalProblems = goals.SettingsFrom(l)
	for _, p := range goalProblems {
		if p.File != settings.Name {
			userErr = errors.Join(userErr, p)
		}
	}
	if len(user.mcpServers) > 0 {
		servers := maps.Clone(user.mcpServers)
		maps.Copy(servers, c.mcpServers)
		c.mcpServers = servers
	}
	return c, problems, userErr
}

func firstError(problems []configProblem) string {
	for _, p := range problems {
		if p.severity == protocol.DiagnosticSeverityError && !p.local {
			return p.message
		}
	}
	return ""
}

// sources are where the project's settings are read from: its folder and
// the writer's config.yaml, or what Options.settingsSources says.
func (p *openBook) sources() settings.Sources {
	if p.settingsSources != nil {
		return p.settingsSources(p.real)
	}
	return settings.Disk(p.real)
}

// configOf is the project's configuration in force.
func (p *openBook) configOf() bookConfig {
	if c := p.config.Load(); c != nil {
		return *c
	}
	return bookConfig{}
}

// reloadConfig reads quire.yaml again after it changed on disk. A file
// that reads becomes the configuration (new manuscript globs find the
// chapters again); one that does not is left for its diagnostics.
func (p *openBook) reloadConfig(ctx context.Context) error {
	c, problems, userErr, err := readConfig(p.sources(), p.real, p.trust)
	p.noteUserConfig(userErr)
	if err != nil || hasErrors(problems) {
		return err
	}
	old := p.configOf()
	p.config.Store(&c)
	if p.seriesChanged(old, c) {
		if err := p.reopenSeries(ctx); err != nil {
			return err
		}
	}
	if !slices.Equal(old.codexGlobs, c.codexGlobs) {
		if _, _, err := p.store.SetGlobs(ctx, c.codexGlobs); err != nil {
			return err
		}
		// The names of the codex as the writer sees it: the series' too.
		p.overlay.namesMu.Lock()
		m := p.setMatcherFor(p.catalog())
		p.overlay.namesMu.Unlock()
		p.ms.SetMatcher(m)
	}
	if !slices.Equal(old.globs, c.globs) {
		return p.ms.SetGlobs(ctx, c.globs)
	}
	return nil
}

// configDiagnostics are the problems of a quire.yaml's text as
// diagnostics; when the file is rejected, each error also says that the
// last good configuration stays in force.
func configDiagnostics(text string) []protocol.Diagnostic {
	_, problems := parseBookConfig([]byte(text))
	lines := textdoc.NewLines(text)
	rejected := hasErrors(problems)
	var out []protocol.Diagnostic
	for i, prob := range problems {
		if i == codex.MaxProblemsPerFile {
			// As for codex files: the first ones, then how many more.
			out = append(out, protocol.Diagnostic{Range: lines.LineRange(prob.line), Severity: protocol.DiagnosticSeverityWarning, Source: "quire", Code: codex.CodeTooManyProblems,
				Message: fmt.Sprintf("%d more problems in this file are not listed; fix the ones above first", len(problems)-i)})
			break
		}
		r := lines.LineRange(prob.line)
		msg := prob.message
		if rejected && prob.severity == protocol.DiagnosticSeverityError && !prob.local {
			msg += " (quire keeps using the settings it last read without errors)"
		}
		out = append(out, protocol.Diagnostic{Range: r, Severity: prob.severity, Source: "quire", Code: "config", Message: msg})
	}
	return out
}

// noteUserConfig records why the user's config.yaml was left out, or
// what of it was set aside, or that neither is so any more.
func (p *openBook) noteUserConfig(err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	p.userConfigErr.Store(&msg)
}

// userConfigProblem is why the user's config.yaml is left out, or "".
func (p *openBook) userConfigProblem() string {
	if m := p.userConfigErr.Load(); m != nil {
		return *m
	}
	return ""
}

// actionFileDiagnostics are the problems of an advisor action file
// (.quire/actions/<name>.md) with the text the editor shows.
func actionFileDiagnostics(rel, text string) []protocol.Diagnostic {
	a, problems := actions.ParseFile(rel, []byte(text))
	if a.ID != "" {
		_, merged := actions.Merge(actions.Core(), []actions.Action{a})
		problems = append(problems, merged...)
	}
	lines := textdoc.NewLines(text)
	var out []protocol.Diagnostic
	for _, p := range problems {
		severity := protocol.DiagnosticSeverityWarning
		if p.Severity == actions.SeverityError {
			severity = protocol.DiagnosticSeverityError
		}
		out = append(out, protocol.Diagnostic{Range: lines.LineRange(p.Line), Severity: severity, Source: "quire", Code: "action", Message: p.Message})
	}
	return out
}

// mcpPool is the pool of the MCP servers quire.yaml declares now. A
// change of servers closes the old pool (its processes end) and starts a
// new one, which connects to a server only when a persona first needs it.
func (p *openBook) mcpPool(log *slog.Logger, onFailure func(server string, err error)) *llm.MCPClients {
	servers := p.configOf().mcpServers
	p.mcpMu.Lock()
	defer p.mcpMu.Unlock()
	if p.mcp != nil && reflect.DeepEqual(p.mcpServers, servers) {
		return p.mcp
	}
	if old := p.mcp; old != nil {
		go func() { _ = old.Close() }()
	}
	p.mcpServers = servers
	p.mcp = llm.NewMCPClients(servers, log, p.real, onFailure)
	return p.mcp
}

// closeMCP ends the MCP servers' processes.
func (p *openBook) closeMCP() {
	p.mcpMu.Lock()
	pool := p.mcp
	p.mcp = nil
	p.mcpMu.Unlock()
	if pool != nil {
		_ = pool.Close()
	}
}
