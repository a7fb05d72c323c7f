package tools

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/clip"
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
	// Ref is get_manuscript_context's ref (refs joined by ", ") or
	// get_dialogue's range ("3 to 7", "from 3"), Name a canon tool's or
	// get_dialogue's name, Query search_codex's query, EntryType the
	// type asked for; each bounded to 200 characters.
	Ref       string `json:"ref,omitempty"`
	Name      string `json:"name,omitempty"`
	Query     string `json:"query,omitempty"`
	EntryType string `json:"entryType,omitempty"`
	OK        bool   `json:"ok"`
	// Code is the first error code of the envelope, "" when OK.
	Code string `json:"code,omitempty"`
	// Paths are the project-relative files the call read: the units'
	// files for get_manuscript_context, the entry for a canon lookup, the
	// results (at most 8) for search_codex and list_codex_entries, the
	// character's entry and then each chapter whose lines it returned
	// for get_dialogue.
	Paths []string `json:"paths,omitempty"`
	// Hashes go with Paths, one each ("sha256:…", "" when the text is not
	// at hand): a unit's prose before any truncation (a selection's own
	// hash), an entry file's source.
	Hashes []string `json:"hashes,omitempty"`
	// AsOf is the chapter a get_<type>_context answer was given as of
	// (its project-relative path), AsOfChapter its place and title
	// (`5 "Salt-Debt"`), and AsOfImplied says it was the writer's current
	// chapter, asOf having been left out. Empty when the entry was
	// answered as written: the same lookup says other things as of
	// another chapter.
	AsOf        string `json:"asOf,omitempty"`
	AsOfChapter string `json:"asOfChapter,omitempty"`
	AsOfImplied bool   `json:"asOfImplied,omitempty"`
	// Outlined counts, for get_outline, the chapters whose cards it
	// returned.
	Outlined int `json:"outlined,omitempty"`
	// Via says, for a chapter read after an outline of this turn listed
	// it, which call listed it ("get_outline chapters 1 to 24"): why
	// the model read it.
	Via string `json:"via,omitempty"`
}

// Call is the lookup as the writer reads it in an answer's manifest:
// the tool and what it was asked (`get_manuscript_context "12"`).
func (l Lookup) Call() string { return describeCall(l) }

// Evidence collects the lookups of one turn as its tools run: each
// read tool records what it was asked and what it read (reading), and the
// loop's trace row of each call (Traced) says how the call ended. Calls
// run one after another, so a read belongs to the call whose row comes
// next. Nil records nothing.
type Evidence struct {
	mu sync.Mutex
	// rows are the trace rows so far, one per call answered.
	rows []toolloop.TraceRow
	// reads are what the read tools recorded, by the index of the call
	// that ran them (the index its row will have).
	reads map[int]*Lookup
	// outlined are the chapters an outline of this turn listed, each
	// with the call that listed it first.
	outlined map[string]string
}

// NewEvidence is the evidence of a turn about to start: no lookups yet.
func NewEvidence() *Evidence {
	return &Evidence{reads: map[int]*Lookup{}}
}

// reading records a read tool call as it starts, with what it was asked;
// the tool adds what it read to the row returned.
func (e *Evidence) reading(l Lookup) *Lookup {
	if e == nil {
		return nil
	}
	l.Ref, l.Name, l.Query, l.EntryType = boundRunes(l.Ref), boundRunes(l.Name), boundRunes(l.Query), boundRunes(l.EntryType)
	e.mu.Lock()
	defer e.mu.Unlock()
	p := &l
	e.reads[len(e.rows)] = p
	return p
}

// Traced records how a call ended: the loop's trace row, as it happens.
func (e *Evidence) Traced(row toolloop.TraceRow) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rows = append(e.rows, row)
}

// Lookups are the turn's lookups, in the order the calls were answered:
// messages are the turn's own (its history left out), each tool message
// the answer to one call and the k-th the answer traced by the k-th row.
// What a call asked comes from its tool when one ran, else from the
// call itself; what it read only from its tool, and only when the call
// worked. Proposal tools are not lookups and are left out; the turn's
// proposals are reported on their own.
func (e *Evidence) Lookups(messages []provider.Message) []Lookup {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	calls := map[string]provider.ToolCall{}
	var out []Lookup
	k := -1
	for _, m := range messages {
		switch {
		case m.Role == provider.RoleAssistant:
			for _, c := range m.ToolCalls {
				calls[c.ID] = c
			}
		case m.Role == provider.RoleTool:
			k++
			call, ok := calls[m.ToolCallID]
			if !ok {
				continue
			}
			delete(calls, m.ToolCallID)
			if strings.HasPrefix(call.Name, "propose_") {
				continue
			}
			l := asked(call)
			if read := e.reads[k]; read != nil && read.Tool == call.Name {
				l = *read
			}
			l.Tool = call.Name
			if k < len(e.rows) {
				l.Round, l.OK, l.Code = e.rows[k].Round, e.rows[k].OK, e.rows[k].Code
			} else {
				l.OK, l.Code = false, toolloop.CodeToolFailed
			}
			if !l.OK {
				l.Paths, l.Hashes = nil, nil
				l.AsOf, l.AsOfChapter, l.AsOfImplied = "", "", false
			}
			out = append(out, l)
		}
	}
	return out
}

// asked is what a call that reached no read tool asked for, read from
// the model's arguments: a call the dispatcher refused, or another
// server's tool.
func asked(call provider.ToolCall) Lookup {
	var l Lookup
	var args struct {
		Ref       *string  `json:"ref"`
		Refs      []string `json:"refs"`
		Name      string   `json:"name"`
		Query     string   `json:"query"`
		EntryType string   `json:"entryType"`
		From      *string  `json:"from"`
		To        *string  `json:"to"`
	}
	if json.Unmarshal([]byte(call.Arguments), &args) == nil {
		if args.Ref != nil {
			l.Ref = boundRunes(*args.Ref)
		} else if len(args.Refs) > 0 {
			l.Ref = boundRunes(strings.Join(args.Refs, ", "))
		} else {
			l.Ref = boundRunes(dialogueRange(args.From, args.To))
		}
		l.Name = boundRunes(args.Name)
		l.Query = boundRunes(args.Query)
		l.EntryType = boundRunes(args.EntryType)
	}
	return l
}

// reading starts the evidence of one read tool call; nil when the sources
// record none (sources outside an advisor turn, as quire mcp serves).
func (src *Sources) reading(l Lookup) *Lookup {
	if src == nil {
		return nil
	}
	return src.evidence.reading(l)
}

// noteOutlined records that the call via listed the chapter path.
func (e *Evidence) noteOutlined(path, via string) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.outlined == nil {
		e.outlined = map[string]string{}
	}
	if _, ok := e.outlined[path]; !ok {
		e.outlined[path] = via
	}
}

// outlinedBy is the call of this turn that listed the chapter path, ""
// when none did.
func (e *Evidence) outlinedBy(path string) string {
	if e == nil {
		return ""
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.outlined[path]
}

// outlinedCount records how many chapters an outline call returned.
func (l *Lookup) outlinedCount(n int) {
	if l != nil {
		l.Outlined = n
	}
}

// answeredAsOf records the chapter a canon lookup was answered as of.
func (l *Lookup) answeredAsOf(a *canonAsOf) {
	if l == nil || a == nil {
		return
	}
	l.AsOf, l.AsOfChapter, l.AsOfImplied = a.Path, boundRunes(a.Chapter), a.Implied
}

func (l *Lookup) add(path, hash string) {
	if l == nil || path == "" {
		return
	}
	l.Paths = append(l.Paths, path)
	l.Hashes = append(l.Hashes, hash)
}

// unitHash is the hash of a manuscript unit's prose as the tool read it,
// before truncation: a selection carries its own; a chapter or document
// is hashed from the snapshot the turn read; failing that, the text the
// model got is hashed.
func unitHash(src *Sources, kind, path, hash, text string) string {
	if hash != "" {
		return hash
	}
	if snap := src.Snapshot(); kind != manuscript.KindSelection && snap != nil {
		if u, ok := snap.Unit(path); ok {
			return codex.HashText(u.BodyText())
		}
	}
	return codex.HashText(text)
}

// entryHash is the hash of a codex entry file's source, "" when the entry
// is not in the catalog.
func entryHash(src *Sources, rel string) string {
	if src == nil || src.Store == nil {
		return ""
	}
	if e, ok := src.canon().Catalog().Get(rel); ok {
		return codex.HashText(e.Source)
	}
	return ""
}

// boundRunes is an argument as an evidence row keeps it: trimmed, and
// cut at maxEvidenceArgRunes with an ellipsis.
func boundRunes(s string) string {
	return clip.Runes(strings.TrimSpace(s), maxEvidenceArgRunes)
}

// Cites says whether answer names what the project file path holds: a
// chapter of snap by its title or as "chapter N", a codex entry of cat
// by its name or an alias; any file by its path. Case is ignored, and a
// name counts only as a whole word ("Mara" is not in "Maram").
func Cites(answer string, snap *manuscript.Snapshot, cat *codex.Catalog, path string) bool {
	low := strings.ToLower(answer)
	if path != "" && strings.Contains(low, strings.ToLower(path)) {
		return true
	}
	var names []string
	if snap != nil {
		if u, ok := snap.Unit(path); ok {
			names = append(names, u.Title)
			if u.Position > 0 {
				names = append(names, "chapter "+strconv.Itoa(u.Position), "chapter "+strings.TrimPrefix(u.Label(), "#"))
			}
		}
	}
	if cat != nil {
		if e, ok := cat.Get(path); ok {
			names = append(names, e.Name)
			names = append(names, e.Aliases...)
		}
	}
	for _, n := range names {
		if utf8.RuneCountInString(strings.TrimSpace(n)) >= 3 && containsWord(low, strings.ToLower(strings.TrimSpace(n))) {
			return true
		}
	}
	return false
}

// containsWord says whether w occurs in s with no letter or digit
// against either end.
func containsWord(s, w string) bool {
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		from = i + 1
	}
	return false
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
