// Package wire is quire's own protocol, written once: the names of its
// custom requests, notifications and commands, and the Go types of their
// parameters and results. The server decodes and encodes these types;
// the VS Code extension's TypeScript types are generated from this file,
// ask.go (an advisor's turn), dialogue.go (the dialogue records) and
// outline.go (the book's outline) (go generate ./server/wire), so the two
// cannot drift apart.
//
// A field's `ts` tag gives its TypeScript type where the Go type says
// less than the wire does (a union of strings, a token of either kind);
// ",optional" after it lets TypeScript code leave the field out.
package wire

//go:generate go run ./gen -out ../../editors/vscode/src/protocol.gen.ts

import (
	"time"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/codex"
)

// Custom requests (JSON-RPC methods) and notifications. The TypeScript
// Methods object is keyed by what follows "quire/".
const (
	MethodPersonas          = "quire/personas"
	MethodAsk               = "quire/ask"
	MethodPeekPrompt        = "quire/peekPrompt"
	MethodActions           = "quire/actions"
	MethodProposals         = "quire/proposals"
	MethodApplyProposal     = "quire/applyProposal"
	MethodDiscardProposal   = "quire/discardProposal"
	MethodPropose           = "quire/propose"
	MethodExplicate         = "quire/explicate"
	MethodStatus            = "quire/status"
	MethodReindex           = "quire/reindex"
	MethodLookup            = "quire/lookup"
	MethodSearch            = "quire/search"
	MethodList              = "quire/list"
	MethodManuscriptContext = "quire/manuscriptContext"
	MethodCaptureSelection  = "quire/captureSelection"
	MethodDoctor            = "quire/doctor"
	MethodModels            = "quire/models"
	MethodStats             = "quire/stats"
	MethodDialogue          = "quire/dialogue"
	MethodLinesOf           = "quire/linesOf"
	// MethodAskProgress is a notification the server sends alongside each
	// $/progress report of an ask, for clients that want the tool row as
	// data (AskProgress); LSP's report carries only a message.
	MethodAskProgress = "quire/askProgress"
)

// Commands (workspace/executeCommand), for clients that cannot send
// custom requests. The TypeScript Commands object is keyed by what
// follows "quire.".
const (
	CommandAsk               = "quire.ask"
	CommandPeekPrompt        = "quire.peekPrompt"
	CommandPersonas          = "quire.personas"
	CommandActions           = "quire.actions"
	CommandProposals         = "quire.proposals"
	CommandApplyProposal     = "quire.applyProposal"
	CommandDiscardProposal   = "quire.discardProposal"
	CommandPropose           = "quire.propose"
	CommandExplicate         = "quire.explicate"
	CommandStatus            = "quire.status"
	CommandReindex           = "quire.reindex"
	CommandLookup            = "quire.lookup"
	CommandSearch            = "quire.search"
	CommandList              = "quire.list"
	CommandManuscriptContext = "quire.manuscriptContext"
	CommandCaptureSelection  = "quire.captureSelection"
	CommandCreateEntry       = "quire.createEntry"
	CommandBookMap           = "quire.bookMap"
	CommandDoctor            = "quire.doctor"
	CommandBuild             = "quire.build"
	CommandModels            = "quire.models"
	CommandUseModel          = "quire.useModel"
	CommandAddAlias          = "quire.addAlias"
	CommandAcceptSpelling    = "quire.acceptSpelling"
	// CommandWordCounts shows the book's counts and goals as a message
	// and answers them as quire/stats does.
	CommandWordCounts = "quire.wordCounts"
	// CommandDialogue answers as quire/dialogue does.
	CommandDialogue = "quire.dialogue"
	// CommandLinesOf lists every line a character speaks (LinesOfParams)
	// as locations, and shows them as a document where the editor has
	// no list of its own for a command's result.
	CommandLinesOf = "quire.linesOf"
	// CommandToggleSpeakerHints turns the speaker hints before lines of
	// dialogue on or off (SpeakerHints).
	CommandToggleSpeakerHints = "quire.toggleSpeakerHints"
)

// BookParams pick a book by a document inside it; without uri, the
// first book open. Most requests carry them.
type BookParams struct {
	URI protocol.DocumentURI `json:"uri,omitempty"`
}

// AddAliasParams are quire.addAlias's, the fix of a misspelled name that
// is a way to write it: the entry (its ID) gains Alias, through a
// proposal applied as a workspace edit of its file.
type AddAliasParams struct {
	BookParams
	Entry string `json:"entry"`
	Alias string `json:"alias"`
}

// AcceptSpellingParams are quire.acceptSpelling's, the fix that says a
// word is no misspelling: it is added to quire.yaml's spelling: list.
type AcceptSpellingParams struct {
	BookParams
	Word string `json:"word"`
}

// LookupParams are quire/lookup's: canon entries by name or alias.
type LookupParams struct {
	BookParams
	Name string     `json:"name"`
	Type codex.Type `json:"type,omitempty"`
}

// SearchParams are quire/search's: a full-text search of the canon.
type SearchParams struct {
	BookParams
	Query  string       `json:"query"`
	Type   codex.Type   `json:"entryType,omitempty"`
	Tags   []string     `json:"tags,omitempty"`
	Status codex.Status `json:"status,omitempty"`
}

// ListParams are quire/list's: every entry, or those of one type.
type ListParams struct {
	BookParams
	Type codex.Type `json:"entryType,omitempty"`
}

// ContextParams are quire/manuscriptContext's: manuscript refs as the
// advisor's get_manuscript_context takes them ("current" is the document
// in uri, "selection" the last captured selection).
type ContextParams struct {
	BookParams
	Ref  string   `json:"ref,omitempty"`
	Refs []string `json:"refs,omitempty"`
}

// CaptureParams are quire/captureSelection's: the writer's selection.
type CaptureParams struct {
	URI   protocol.DocumentURI `json:"uri"`
	Range protocol.Range       `json:"range"`
}

// BookMapParams are quire.bookMap's: draw the map of the book holding
// uri (manuscript/bookmap) and open it in the browser.
type BookMapParams struct {
	BookParams
	// EditorURI links the heatmap's cells with the editor's own URI,
	// {path}, {line} and {column} filled in
	// ("vscode://file/{path}:{line}:{column}"); empty links file:// URIs.
	EditorURI string `json:"editorUri,omitempty"`
	// Quiet writes the map and opens nothing, for a client that shows it
	// itself (a webview panel).
	Quiet bool `json:"quiet,omitempty"`
	// Table asks for the heatmap as data too, for a client that draws it
	// as text.
	Table bool `json:"table,omitempty"`
}

// BuildParams are quire.build's: build the manuscript of the book
// holding uri (manuscript/export) into the folder build: output names,
// else the writer's Documents folder (quire/<book folder>), else quire's
// cache folder; never into the book unless the writer named a folder
// there.
type BuildParams struct {
	BookParams
	// Format is docx, epub, md or html; empty is docx.
	Format string `json:"format,omitempty"`
	// Preset is manuscript (the standard manuscript format) or reader
	// (book-like); empty is manuscript for docx, reader otherwise.
	Preset string `json:"preset,omitempty"`
	// Chapters name the chapters to build, by path, number or title;
	// none builds the whole manuscript in reading order.
	Chapters []string `json:"chapters,omitempty"`
	// Quiet sends no message naming the file, for a client that tells
	// the writer itself (VS Code offers to open it).
	Quiet bool `json:"quiet,omitempty"`
}

// BuildResult is what quire.build wrote.
type BuildResult struct {
	// Path is the file written (export.OutputFolder chose its folder).
	Path string               `json:"path"`
	URI  protocol.DocumentURI `json:"uri"`
	// Format and Preset are what was built.
	Format   string `json:"format"`
	Preset   string `json:"preset"`
	Chapters int    `json:"chapters"`
	// Words counts the prose the file holds (manuscript.CountWords
	// over the paragraphs built: no chapter titles, scene headings,
	// comments or front matter), which can be fewer than the book's
	// count in quire/stats.
	Words int `json:"words"`
	Bytes int `json:"bytes"`
	// Warnings are what the writer should know of a build written all
	// the same: a setting the manuscript shows a placeholder for
	// (build: author, contact), a book's output folder set aside.
	Warnings []string `json:"warnings,omitempty"`
}

// BookMapResult is what quire.bookMap wrote.
type BookMapResult struct {
	// Path is the page, in quire's cache folder (never in the book).
	Path string               `json:"path"`
	URI  protocol.DocumentURI `json:"uri"`
	// Bytes is the page's size.
	Bytes    int `json:"bytes"`
	Chapters int `json:"chapters"`
	Entries  int `json:"entries"`
	// Counts says Chapters and Entries as a writer reads them ("61
	// chapters, 6 codex entries mentioned"): editors show it as it is,
	// so every editor counts as the command line does.
	Counts string `json:"counts"`
	// Shown says the client opened the page (window/showDocument).
	Shown bool `json:"shown"`
	// Table is the heatmap, when asked for.
	Table *MentionTable `json:"table,omitempty"`
}

// MentionTable is the heatmap as data: the chapters, and a row for each
// of the entries mentioned most, in order of first appearance.
type MentionTable struct {
	// Chapters label the columns: the chapter's number, else #position.
	Chapters []string      `json:"chapters"`
	Titles   []string      `json:"titles"`
	Rows     []MentionsRow `json:"rows"`
	// Mentioned counts every entry the chapters mention; Rows holds at
	// most a few hundred of them, those mentioned most.
	Mentioned int `json:"mentioned"`
}

// MentionsRow is one entry's mentions per chapter.
type MentionsRow struct {
	Name  string     `json:"name"`
	Type  codex.Type `json:"type"`
	Total int        `json:"total"`
	// Counts line up with the table's Chapters.
	Counts []int `json:"counts"`
}

// ExplicateParams are quire/explicate's: a quoted sentence of the codex.
type ExplicateParams struct {
	BookParams
	Quote string `json:"quote"`
	Limit int    `json:"limit,omitempty"`
}

// CodexEntry is one canon entry as quire/lookup, quire/search and
// quire/list return it, and as `quire lookup --json` prints it. Its
// fields are codex.Result's, so the server converts one into the other.
type CodexEntry struct {
	ProjectPath  string       `json:"projectPath,omitempty"`
	RelativePath string       `json:"relativePath"`
	Type         codex.Type   `json:"type"`
	Name         string       `json:"name"`
	Title        string       `json:"title"`
	Aliases      []string     `json:"aliases,omitempty"`
	Summary      string       `json:"summary,omitempty"`
	Tags         []string     `json:"tags,omitempty"`
	Status       codex.Status `json:"status"`
	Excerpt      string       `json:"excerpt,omitempty"`
	SoulExcerpt  string       `json:"soulExcerpt,omitempty"`
	// Match says how a lookup matched, best first; a search and a
	// listing leave it out.
	Match codex.MatchKind `json:"match,omitempty" ts:"\"name\" | \"title\" | \"stem\" | \"alias\" | \"partial\" | \"fuzzy\""`
	Score float64         `json:"score,omitempty"`
	// Canon says where an entry of a book in a series comes from: "series
	// canon", or "book over series canon" for a book entry overriding a
	// series entry; left out for the book's own.
	Canon string `json:"canon,omitempty"`
	// SeriesPath is the series entry's file, absolute.
	SeriesPath string `json:"seriesPath,omitempty"`
	// SeriesFields are the fields of a book's override that the series
	// fills in.
	SeriesFields []string `json:"seriesFields,omitempty"`
}

// QueryResult is quire/lookup's and quire/search's answer: the query,
// the type it was limited to, and the entries found, best first.
type QueryResult struct {
	Query   string       `json:"query"`
	Type    codex.Type   `json:"type,omitempty"`
	Results []CodexEntry `json:"results"`
}

// ListResult is quire/list's answer.
type ListResult struct {
	Type    codex.Type   `json:"entryType,omitempty"`
	Count   int          `json:"count"`
	Entries []CodexEntry `json:"entries"`
}

// ManuscriptContext is quire/manuscriptContext's answer: the prose the
// advisor's get_manuscript_context would read (manuscript.Context).
type ManuscriptContext struct {
	Units []ContextUnit `json:"units"`
	// Chars counts the characters of prose returned, markers excluded.
	Chars int `json:"chars"`
	// Truncated says some unit was cut or left out to stay in bounds.
	Truncated bool `json:"truncated"`
	// Failed lists the refs that resolved to nothing, when others did.
	Failed []FailedRef `json:"failed,omitempty"`
}

// ContextUnit is one chapter, document or selection of a
// ManuscriptContext (manuscript.ContextUnit).
type ContextUnit struct {
	Ref      string `json:"ref"`
	Kind     string `json:"kind" ts:"\"chapter\" | \"document\" | \"selection\""`
	Path     string `json:"path"`
	Title    string `json:"title"`
	Number   int    `json:"number,omitempty"`
	Position int    `json:"position,omitempty"`
	Words    int    `json:"words"`
	// Hash identifies a selection's text.
	Hash string `json:"hash,omitempty"`
	// Text is the prose, cut to the limits with a marker saying so.
	Text string `json:"text"`
	// Chars is the true length of the unit's prose; Truncated says Text
	// holds less of it.
	Chars     int  `json:"chars"`
	Truncated bool `json:"truncated,omitempty"`
}

// FailedRef is a manuscript ref that could not be read, with the
// chapters it might have meant.
type FailedRef struct {
	Ref        string         `json:"ref"`
	Error      string         `json:"error"`
	Candidates []RefCandidate `json:"candidates,omitempty"`
}

// RefCandidate is a chapter a failed ref might have meant.
type RefCandidate struct {
	Ref   string `json:"ref"`
	Path  string `json:"path"`
	Title string `json:"title"`
}

// CaptureResult is quire/captureSelection's answer: the selection
// without its text, which stays in the server for the next ask
// (manuscript.SelectionMeta).
type CaptureResult struct {
	Path        string `json:"path"`
	Title       string `json:"title"`
	Hash        string `json:"hash"`
	Words       int    `json:"words"`
	SourceWords int    `json:"sourceWords"`
}

// ExplicateResult is quire/explicate's answer: where in the codex the
// quote comes from, and the manuscript passages that support it, best
// first.
type ExplicateResult struct {
	Quote    string             `json:"quote"`
	Source   *ExplicateSource   `json:"source,omitempty"`
	Passages []ExplicatePassage `json:"passages"`
}

// QuoteSource is the place in the codex a quote comes from
// (manuscript.QuoteSource).
type QuoteSource struct {
	// Entry is the entry's id (its path in the book), Name its name.
	Entry string `json:"entry"`
	Name  string `json:"name"`
	// Path is the file Range points into: the entry's own, or its soul.
	Path    string      `json:"path"`
	Section string      `json:"section,omitempty"`
	Range   codex.Range `json:"range"`
	// Exact is false when the file holds a sentence close to the quote
	// rather than its words in order.
	Exact bool `json:"exact"`
}

// ExplicateSource is a QuoteSource with a location an editor can open,
// when the file is readable.
type ExplicateSource struct {
	QuoteSource
	Location *protocol.Location `json:"location,omitempty"`
}

// Passage is one manuscript paragraph that supports a quote
// (manuscript.Passage).
type Passage struct {
	Path     string      `json:"path"`
	Title    string      `json:"title"`
	Number   int         `json:"number,omitempty"`
	Position int         `json:"position,omitempty"`
	Heading  string      `json:"heading,omitempty"`
	Range    codex.Range `json:"range"`
	// Score ranks passages within one answer only.
	Score float64 `json:"score"`
	// Text is the paragraph, or its part richest in the quote's words.
	Text string `json:"text"`
}

// ExplicatePassage is a Passage with a location an editor can open.
type ExplicatePassage struct {
	Passage
	Location *protocol.Location `json:"location,omitempty"`
}

// ProposalParams name one proposal, for quire/applyProposal and
// quire/discardProposal.
type ProposalParams struct {
	BookParams
	ID string `json:"id"`
}

// Proposal is one proposal as quire/proposals lists it.
type Proposal struct {
	ID            string     `json:"id"`
	Kind          string     `json:"kind" ts:"\"update\" | \"create\""`
	Name          string     `json:"name"`
	EntryType     codex.Type `json:"entryType"`
	Path          string     `json:"path"`
	SoulPath      string     `json:"soulPath,omitempty"`
	ChangeSummary string     `json:"changeSummary"`
	Markdown      string     `json:"markdown"`
	SoulMarkdown  string     `json:"soulMarkdown,omitempty"`
	Warnings      []string   `json:"warnings"`
	Created       time.Time  `json:"created"`
	// Status is "pending", "applied" (the editor said so) or "stale" (a
	// file it edits changed since; applying it would be refused).
	Status string `json:"status" ts:"\"pending\" | \"applied\" | \"stale\",optional"`
	// Diff is the unified diff of the change, against the text it was
	// made from.
	Diff string `json:"diff" ts:",optional"`
}

// ProposalsResult is quire/proposals' answer, newest first.
type ProposalsResult struct {
	Proposals []Proposal `json:"proposals"`
}

// ProposeResult is quire/propose's answer: the ask that proposed, and
// each proposal in full.
type ProposeResult struct {
	AskResult
	Details []Proposal `json:"details"`
}

// DiscardResult is quire/discardProposal's answer.
type DiscardResult struct {
	ID        string `json:"id"`
	Discarded bool   `json:"discarded"`
}

// ApplyResult is the client's answer to a proposal's edit, as quire
// reports it back from quire/applyProposal.
type ApplyResult struct {
	ID            string `json:"id"`
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
	// Message tells the writer the outcome ("Applied the proposed update
	// of … to …: review and save."), for plugins to show as they are.
	Message string `json:"message" ts:",optional"`
}

// BookStatus is one open book's state, as quire/status lists it.
type BookStatus struct {
	Root  string `json:"root"`
	State string `json:"state" ts:"\"loading\" | \"indexing\" | \"ready\" | \"error\""`
	// Entries counts the codex entries the book reads: its own, and
	// those of its series that it does not override.
	Entries  int `json:"entries"`
	Chapters int `json:"chapters"`
	Problems int `json:"problems"`
	// Counts says Entries, Chapters and Problems as a writer reads them
	// ("6 codex entries, 61 chapters, no problems"); editors show it
	// as it is. Empty until the book is read.
	Counts  string `json:"counts,omitempty"`
	Message string `json:"message,omitempty"`
	// Series is the real path of the series folder the book reads (once
	// the writer trusts it). The session of the book answers for that
	// folder's files too: a plugin that starts one session per book
	// sends a series file to this book's session, not to a new one.
	Series string `json:"series,omitempty"`
	// Provider is the model and the address the book's settings name for
	// the advisor (quire.yaml over the writer's config.yaml, before the
	// editor's own settings), "model at address"; empty when they name
	// none. It changes when either file does, even outside the editor:
	// a client shows the advisor's state again then.
	Provider string `json:"provider,omitempty"`
}

// StatusResult is quire/status's answer.
type StatusResult struct {
	Books []BookStatus `json:"books"`
}

// DoctorResult is quire/doctor's answer: the health report `quire
// doctor --json` prints, one check per thing the writer needs working.
type DoctorResult struct {
	Checks []DoctorCheck `json:"checks"`
}

// DoctorCheck is one line of the health report. Detail and Fix are the
// writer's words and never hold a key; Fix is empty when Status is ok.
type DoctorCheck struct {
	Name   string `json:"name" ts:"\"quire\" | \"book\" | \"index\" | \"provider\" | \"model\" | \"key\" | \"trust\" | \"series\""`
	Status string `json:"status" ts:"\"ok\" | \"warning\" | \"problem\""`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// System is the operating system's own words behind a problem, for
	// a bug report; what the writer reads is Detail and Fix.
	System string `json:"system,omitempty"`
}

// LocalModel is one model a server on the writer's computer offers
// (quire/models), as `quire models --json` lists it.
type LocalModel struct {
	// Server is what the writer knows it as: Ollama, LM Studio, …
	Server string `json:"server"`
	// BaseURL is its OpenAI-compatible API root, provider.base_url.
	BaseURL string `json:"baseURL"`
	Model   string `json:"model"`
}

// UseModelParams are quire.useModel's: the model to write into the
// writer's own config.yaml, one quire/models listed.
type UseModelParams struct {
	BaseURL string `json:"baseURL"`
	Model   string `json:"model"`
}

// UseModelResult says where the choice was written.
type UseModelResult struct {
	Path    string `json:"path"`
	BaseURL string `json:"baseURL"`
	Model   string `json:"model"`
}

// ReindexResult is quire/reindex's answer: the book's state after the
// rebuild and how long it took.
type ReindexResult struct {
	BookStatus
	MS int64 `json:"ms"`
}

// AdvisorAction is one advisor action (quire/actions): a named ask the
// server offers as a code action titled Label, whose command is quire.ask.
type AdvisorAction struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Label string `json:"label"`
	// Scope is "selection", "file" or "project".
	Scope   string `json:"scope" ts:"ActionScope"`
	Persona string `json:"persona"`
	Usage   string `json:"usage,omitempty"`
	Core    bool   `json:"core"`
	// Source is "core", "quire.yaml" or ".quire/actions/<file>.md".
	Source string `json:"source"`
}

// Stats are quire/stats's answer: the book's word counts, today's work,
// its recent history and its goals, the numbers `quire stats --json`
// prints (manuscript/goals.Summary, the same fields), with the texts the
// editors show.
type Stats struct {
	Words    int            `json:"words"`
	Target   int            `json:"target,omitempty" ts:"number,optional"`
	Chapters []StatsChapter `json:"chapters" ts:"StatsChapter[]"`
	Today    StatsDay       `json:"today"`
	Daily    int            `json:"daily,omitempty" ts:"number,optional"`
	Days     []StatsDay     `json:"days" ts:"StatsDay[]"`
	// Session is the words added in this run of the server.
	Session     int         `json:"session,omitempty" ts:"number,optional"`
	Streak      int         `json:"streak"`
	Deadline    string      `json:"deadline,omitempty" ts:"string,optional"`
	WritingDays []string    `json:"writingDays,omitempty" ts:"string[],optional"`
	Quota       *StatsQuota `json:"quota,omitempty" ts:"StatsQuota,optional"`
	// Chapter is the chapter of the params' uri, when it is one.
	Chapter *StatsChapter `json:"chapter,omitempty" ts:"StatsChapter,optional"`
	// Status is the line a status bar shows: "Ch. 3 · 4,210 words ·
	// today +1,250 of 1,000 ✓ · book 82,400 of 90,000".
	Status string `json:"status"`
	// Message is the summary in a few lines, as window/showMessage shows
	// it.
	Message string `json:"message"`
}

// StatsChapter is one chapter's count against its target.
type StatsChapter struct {
	Path     string `json:"path"`
	Title    string `json:"title"`
	Position int    `json:"position"`
	// Label is the chapter's number as quire shows it everywhere: its
	// file's leading number, else "#" and its place in reading order.
	Label  string `json:"label"`
	Words  int    `json:"words"`
	Target int    `json:"target,omitempty" ts:"number,optional"`
	// Lens is its code lens: "4,210 words · target 4,000 ✓".
	Lens string `json:"lens"`
}

// StatsDay is one day of the book's history.
type StatsDay struct {
	Date  string `json:"date"`
	First int    `json:"first"`
	Last  int    `json:"last"`
	Net   int    `json:"net"`
	Gross int    `json:"gross"`
}

// StatsQuota is what is left to reach the book's target by its deadline.
type StatsQuota struct {
	Left        int    `json:"left"`
	WritingDays int    `json:"writingDays"`
	PerDay      int    `json:"perDay"`
	Message     string `json:"message"`
}
