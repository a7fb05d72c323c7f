package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm"
	"github.com/quire-ink/quire/llm/actions"
	"github.com/quire-ink/quire/llm/advisor"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/manuscript"
	mbook "github.com/quire-ink/quire/manuscript/book"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/export"
	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/manuscript/snapshot"
)

// checkOptions configure `quire check`.
type checkOptions struct {
	*globalOptions `json:"-"`
	// Paths limit the report to these files and folders, relative to the
	// book or absolute; none means the whole book.
	Paths []string `json:"paths,omitempty"`
}

func newCheckCommand(g *globalOptions) *cobra.Command {
	o := &checkOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "check [PATH…]",
		Short: "Report every problem quire finds in the book, for hooks and CI",
		Long: `check reports every problem quire knows in the book: codex front matter,
broken links and duplicate names, quire.yaml settings (unknown keys and the
advisor actions it sets aside included), chapter story time (pov, day,
location, flashback), progressions and style rules, and the continuity
checks (trait-contradiction, after-death, timeline-order, unknown-reference,
style-rule). A traits: or checks: of your own config.yaml that cannot be
used is listed under that file's full path, as a warning, when the whole
book is checked.

Each problem is one line:

  path:line:column: severity: message [code]

with the path relative to the book and the line and column counted from 1;
columns count characters (Unicode code points), not bytes. Problems are
sorted by file, then position. PATH… limits the report to those files and
folders (relative to the book, else to the current folder, or absolute).

--json prints {"problems": [{"path", "line", "column", "endLine",
"endColumn", "severity", "code", "message"}]}, lines and columns counted the
same way.

Exit status: 0 when no problem is an error (warnings and infos do not fail),
1 when at least one is, 2 when the book cannot be opened or the command is
misused.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			return o.run(cmd)
		},
	}
	// A misused flag is status 2 too, so that a hook tells it apart from
	// problems found.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return o.usage(err.Error() + "; see quire check --help")
	})
	return cmd
}

// checkProblem is one problem as `quire check` reports it: 1-based lines,
// columns in characters.
type checkProblem struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	sev       codex.Severity
}

// notDownloadedMessage is said of a chapter that is an iCloud placeholder.
const notDownloadedMessage = "this chapter is in iCloud Drive but not downloaded to this Mac, so quire cannot read it; open its folder in Finder and choose Download Now (or turn off Optimise Mac Storage)"

type checkOutput struct {
	Problems []checkProblem `json:"problems"`
}

func (o *checkOptions) run(cmd *cobra.Command) error {
	dir, err := o.projectDir()
	if err != nil {
		return o.usage(err.Error())
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return o.usage(fmt.Sprintf("there is no book folder at %s; pass --project with the folder that holds quire.yaml, codex/ or manuscript/", dir))
	}
	// The chapters' names are found with the canon's matcher (below), not
	// the book's.
	b, err := o.open(cmd.Context(), mbook.Options{LaterMentions: true})
	if err != nil {
		// A quire.yaml that does not read stops the opening; it is still
		// a problem of the book, at its line, and fails the check.
		var sp *settings.Problem
		if errors.As(err, &sp) && sp.File == settings.Name {
			return o.report([]checkProblem{settingsProblem(sp, codex.SeverityError)})
		}
		return o.usage(fmt.Sprintf("cannot open the book at %s: %v", dir, err))
	}
	defer b.Close()
	filter, err := o.filter(b.Root)
	if err != nil {
		return o.usage(err.Error())
	}

	var problems []checkProblem
	files := newSourceFiles(b.Root)
	addCodex := func(ps []codex.Problem) {
		for _, p := range ps {
			if filter(p.Path) {
				problems = append(problems, files.located(p.Path, p.Range, p.Severity, p.Code, p.Message))
			}
		}
	}

	addCodex(b.View.Catalog().Problems())

	opts, optProblems := continuity.OptionsFrom(b.Settings)
	// A bad goal is a warning, as in the editor: the other goals apply.
	_, goalProblems := goals.SettingsFrom(b.Settings)
	// And a bad snapshots: length.
	_, snapProblems := snapshot.PolicyFrom(b.Settings)
	goalProblems = append(goalProblems, snapProblems...)
	for _, sp := range goalProblems {
		switch {
		case sp.File == settings.Name || sp.File == "":
			if filter(settings.Name) {
				problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
			}
		case len(o.Paths) == 0:
			problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
		}
	}
	for _, sp := range optProblems {
		switch {
		case sp.File == settings.Name || sp.File == "":
			if filter(settings.Name) {
				problems = append(problems, settingsProblem(sp, codex.SeverityError))
			}
		case len(o.Paths) == 0:
			// The writer's own config.yaml is outside the book: it is
			// listed under its own path when the whole book is checked,
			// and as a warning, since the book's CI does not read it.
			problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
		}
	}
	if filter(settings.Name) {
		for _, sp := range b.Settings.Book.UnknownKeys() {
			problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
		}
		for _, ap := range actions.SettingsProblems(b.Settings.Book) {
			problems = append(problems, files.actionProblem(ap))
		}
		// A bad build: value stops only quire build: a warning here.
		_, buildProblems := export.ReadSettings(&settings.Loaded{Book: b.Settings.Book, User: &settings.File{}}, b.Root)
		for _, sp := range buildProblems {
			problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
		}
		// A bad dialogue: value leaves detection to guess: a warning.
		_, dialogueProblems := dialogue.ReadSettings(&settings.Loaded{Book: b.Settings.Book, User: &settings.File{}})
		for _, sp := range dialogueProblems {
			problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
		}
		// A bad outline: value leaves its setting at the default.
		_, outlineProblems := manuscript.ReadOutlineSettings(&settings.Loaded{Book: b.Settings.Book, User: &settings.File{}})
		for _, sp := range outlineProblems {
			problems = append(problems, settingsProblem(sp, codex.SeverityWarning))
		}
		for _, err := range []error{settingsErr(advisor.SettingsFrom(b.Settings.Book, llm.PersonaIDs())), providerErr(endpoint.ProviderFrom(b.Settings.Book))} {
			var sp *settings.Problem
			if errors.As(err, &sp) && (sp.File == settings.Name || sp.File == "") {
				problems = append(problems, settingsProblem(sp, codex.SeverityError))
			} else if err != nil {
				problems = append(problems, checkProblem{Path: settings.Name, Line: 1, Column: 1, EndLine: 1, EndColumn: 1,
					Severity: codex.SeverityError.String(), sev: codex.SeverityError, Code: "settings", Message: err.Error()})
			}
		}
	}

	// The chapters are scanned once with the canon's names: the checks
	// read each chapter's mentions from that scan, and name-spelling
	// weighs a word by how often the whole book uses a name.
	canon := continuity.NewCanon(b.View.Catalog(), opts)
	b.Manuscript.SetMatcher(canon.Matcher())
	snap := b.Manuscript.Snapshot()
	for _, u := range snap.Units() {
		files.remember(u.Path, u.Text)
	}
	tl := continuity.NewTimeline(canon, snap)
	addCodex(tl.Canon().Problems())
	addCodex(tl.Problems())
	var units []*manuscript.Unit
	for _, u := range snap.Units() {
		if filter(u.Path) {
			addCodex(u.Meta.Problems)
			addCodex(u.OutlineProblems(opts.Scenes))
			// A chapter's [[links]] are held to the codex as an entry's are.
			addCodex(b.View.Catalog().LinkProblems(u.Path, codex.LinksInBody(u.Text, u.Body, u.Code)))
			units = append(units, u)
		}
	}
	for _, d := range checkChapters(tl, units) {
		problems = append(problems, files.located(d.Path, d.Range, d.Severity, d.Code, d.Message))
	}
	for _, p := range snap.Unreadable() {
		if filter(p.Path) {
			problems = append(problems, checkProblem{Path: p.Path, Line: 1, Column: 1, EndLine: 1, EndColumn: 1,
				Severity: p.Severity.String(), sev: p.Severity, Code: p.Code, Message: p.Message})
		}
	}
	for _, rel := range snap.NotDownloaded() {
		if filter(rel) {
			problems = append(problems, checkProblem{Path: rel, Line: 1, Column: 1, EndLine: 1, EndColumn: 1,
				Severity: codex.SeverityWarning.String(), sev: codex.SeverityWarning, Code: "not-downloaded",
				Message: notDownloadedMessage})
		}
	}
	return o.report(problems)
}

// checkChapters is continuity.CheckAll's diagnostics for units, the
// chapters checked side by side on every core: a chapter's check is a
// pure function of the timeline and its text, and the whole book's
// check is what a pre-commit hook waits for.
func checkChapters(tl *continuity.Timeline, units []*manuscript.Unit) []continuity.Diagnostic {
	results := make([][]continuity.Diagnostic, len(units))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(units), 1)) {
		wg.Go(func() {
			for i := range next {
				results[i] = continuity.Check(tl, units[i])
			}
		})
	}
	for i := range units {
		next <- i
	}
	close(next)
	wg.Wait()
	return slices.Concat(results...)
}

// report prints the problems sorted by file then position, and fails
// with status 1 when any is an error.
func (o *checkOptions) report(problems []checkProblem) error {
	slices.SortStableFunc(problems, func(a, b checkProblem) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.sev, b.sev), strings.Compare(a.Code, b.Code))
	})
	if problems == nil {
		problems = []checkProblem{}
	}
	if o.JSON {
		if err := writeJSON(o.stdout, checkOutput{Problems: problems}); err != nil {
			return err
		}
	} else {
		for _, p := range problems {
			fmt.Fprintf(o.stdout, "%s:%d:%d: %s: %s [%s]\n", codex.PrintableName(p.Path), p.Line, p.Column, p.Severity, oneLine(p.Message), p.Code)
		}
		if len(problems) == 0 {
			// As quire index says it: silence would leave the writer
			// wondering whether the check ran. The line matches no
			// problem pattern, so a hook or an editor's problem
			// matcher reads no problem from it.
			fmt.Fprintln(o.stdout, "No problems found.")
		}
	}
	if slices.ContainsFunc(problems, func(p checkProblem) bool { return p.sev == codex.SeverityError }) {
		return exitError{code: 1}
	}
	return nil
}

// usage says on stderr why the check could not run and ends with
// status 2, which a hook tells apart from problems found.
func (o *checkOptions) usage(msg string) error {
	fmt.Fprintln(o.stderr, "quire check:", msg)
	return exitError{code: 2}
}

// filter is whether a book-relative path is one the writer asked about.
func (o *checkOptions) filter(root string) (func(rel string) bool, error) {
	if len(o.Paths) == 0 {
		return func(string) bool { return true }, nil
	}
	var prefixes []string
	for _, p := range o.Paths {
		// A relative path is the book's; failing that, the working
		// folder's, as a writer typing in manuscript/ means it.
		candidates := []string{p}
		if !filepath.IsAbs(p) {
			candidates = []string{filepath.Join(root, p), p}
		}
		abs := ""
		for _, c := range candidates {
			if resolved, err := filepath.EvalSymlinks(c); err == nil {
				if abs, err = filepath.Abs(resolved); err == nil {
					break
				}
			}
		}
		if abs == "" {
			return nil, fmt.Errorf("%s: no such file or folder in the book", p)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s is outside the book at %s", p, root)
		}
		prefixes = append(prefixes, filepath.ToSlash(rel))
	}
	return func(rel string) bool {
		for _, p := range prefixes {
			if p == "." || rel == p || strings.HasPrefix(rel, p+"/") {
				return true
			}
		}
		return false
	}, nil
}

func settingsErr(_ advisor.Settings, err error) error          { return err }
func providerErr(_ endpoint.ProviderSettings, err error) error { return err }

// settingsProblem is a problem of a settings file, under the file's
// name: quire.yaml, or the path of the writer's config.yaml. Its message
// keeps the file's own "line N: " prefix out, as the position says it.
func settingsProblem(p *settings.Problem, sev codex.Severity) checkProblem {
	line, col := max(p.Line, 1), max(p.Column, 1)
	msg := strings.TrimPrefix(p.Message, fmt.Sprintf("line %d: ", p.Line))
	return checkProblem{Path: cmp.Or(p.File, settings.Name), Line: line, Column: col, EndLine: line, EndColumn: col,
		Severity: sev.String(), sev: sev, Code: "settings", Message: msg}
}

// actionProblem is a problem of an advisor action in quire.yaml's
// actions:, over the words of its line (an action problem knows its line,
// not its column).
func (s *sourceFiles) actionProblem(p actions.Problem) checkProblem {
	sev := codex.SeverityWarning
	if p.Severity == actions.SeverityError {
		sev = codex.SeverityError
	}
	line := max(p.Line, 1)
	li := s.index(settings.Name)
	if line <= len(li.starts) {
		start, end := li.starts[line-1], len(li.text)
		if line < len(li.starts) {
			end = li.starts[line] - 1
		}
		text := li.text[start:end]
		if words := strings.TrimSpace(text); words != "" {
			from := start + strings.Index(text, words)
			return s.located(settings.Name, codex.Range{Start: from, End: from + len(words)}, sev, "action", p.Message)
		}
	}
	return checkProblem{Path: settings.Name, Line: line, Column: 1, EndLine: line, EndColumn: 1,
		Severity: sev.String(), sev: sev, Code: "action", Message: p.Message}
}

// oneLine keeps a problem on its line, and the terminal's: its line
// breaks are spaces, and the control characters a name in it may hold
// (an escape code, a line break of a file name) are printed escaped.
func oneLine(s string) string { return codex.PrintableName(strings.Join(strings.Fields(s), " ")) }

// sourceFiles turns byte offsets into lines and columns, reading each
// file once and indexing its line starts once.
type sourceFiles struct {
	root  string
	lines map[string]lineIndex
}

// lineIndex is a file's text and the byte offset of each line's start.
type lineIndex struct {
	text   string
	starts []int
}

func newSourceFiles(root string) *sourceFiles {
	return &sourceFiles{root: root, lines: map[string]lineIndex{}}
}

// remember indexes text as rel's, so that chapters are not read twice.
func (s *sourceFiles) remember(rel, text string) {
	if _, ok := s.lines[rel]; ok {
		return
	}
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	s.lines[rel] = lineIndex{text: text, starts: starts}
}

func (s *sourceFiles) index(rel string) lineIndex {
	if li, ok := s.lines[rel]; ok {
		return li
	}
	var text string
	if data, err := os.ReadFile(inBook(s.root, rel)); err == nil && len(data) <= codex.MaxEntryBytes {
		text = string(data)
	}
	s.remember(rel, text)
	return s.lines[rel]
}

// position is the 1-based line and character column of byte offset off.
func (li lineIndex) position(off int) (line, col int) {
	off = max(0, min(off, len(li.text)))
	i, _ := slices.BinarySearch(li.starts, off+1)
	start := li.starts[i-1]
	return i, utf8.RuneCountInString(li.text[start:off]) + 1
}

func (s *sourceFiles) located(rel string, r codex.Range, sev codex.Severity, code, msg string) checkProblem {
	li := s.index(rel)
	line, col := li.position(r.Start)
	endLine, endCol := li.position(max(r.End, r.Start))
	return checkProblem{Path: rel, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Severity: sev.String(), sev: sev, Code: code, Message: msg}
}
