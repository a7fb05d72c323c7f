package server

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/server/textdoc"
	"github.com/quire-ink/quire/server/wire"
)

// Word counts and goals in the editor: quire/stats answers them as data
// (the numbers `quire stats --json` prints, and the status bar's line),
// and the quire.wordCounts command, also the code action "Word counts and
// goals" in a chapter and the command of its code lens, shows them as one
// message, for Helix and eglot as for every client.

// wordCountsActionTitle is the code action that shows the summary.
const wordCountsActionTitle = "Word counts and goals"

// quireStats answers quire/stats for the book holding a.URI.
func (s *Server) quireStats(ctx context.Context, a wire.BookParams) (wire.Stats, error) {
	proj, err := s.projectOf(ctx, a)
	if err != nil {
		return wire.Stats{}, err
	}
	return statsOf(proj.summary(), s.chapterRel(proj, a.URI)), nil
}

// quireWordCounts runs quire.wordCounts: it shows the summary and answers
// it as quire/stats does.
func (s *Server) quireWordCounts(ctx context.Context, a wire.BookParams) (wire.Stats, error) {
	st, err := s.quireStats(ctx, a)
	if err != nil {
		return st, err
	}
	// The space before each line break keeps the lines apart where the
	// client joins them into one (Helix's status line), as the health
	// report's does.
	s.showMessage(ctx, protocol.MessageTypeInfo, strings.ReplaceAll(st.Message, "\n", " \n"))
	return st, nil
}

// chapterRel is the book-relative path of uri, "" when none.
func (s *Server) chapterRel(proj *openBook, uri protocol.DocumentURI) string {
	if uri == "" {
		return ""
	}
	path, ok := textdoc.URIPath(uri)
	if !ok {
		return ""
	}
	p, rel, ok := s.projectFor(path)
	if !ok || p != proj {
		return ""
	}
	return rel
}

// statsOf is the summary on the wire; rel names the chapter the writer
// is in, if any.
func statsOf(sum goals.Summary, rel string) wire.Stats {
	st := wire.Stats{
		Words: sum.Words, Target: sum.Target, Daily: sum.Daily, Streak: sum.Streak, Session: sum.Session,
		Deadline: sum.Deadline, WritingDays: sum.WritingDays,
		Today:    wire.StatsDay(sum.Today),
		Chapters: make([]wire.StatsChapter, 0, len(sum.Chapters)),
		Days:     make([]wire.StatsDay, 0, len(sum.Days)),
	}
	var current *goals.Chapter
	for i, c := range sum.Chapters {
		st.Chapters = append(st.Chapters, statsChapter(c))
		if rel != "" && c.Path == rel {
			current = &sum.Chapters[i]
			st.Chapter = &st.Chapters[i]
		}
	}
	for _, d := range sum.Days {
		st.Days = append(st.Days, wire.StatsDay(d))
	}
	if q := sum.Quota; q != nil {
		st.Quota = &wire.StatsQuota{Left: q.Left, WritingDays: q.WritingDays, PerDay: q.PerDay, Message: q.Message}
	}
	st.Status = sum.TodayText() + " · " + sum.BookText()
	if current != nil {
		st.Status = fmt.Sprintf("Ch. %s · %s · %s", current.Label, current.Lens(), st.Status)
	}
	st.Message = sum.Message(current)
	return st
}

func statsChapter(c goals.Chapter) wire.StatsChapter {
	return wire.StatsChapter{Path: c.Path, Title: c.Title, Position: c.Position, Label: c.Label, Words: c.Words, Target: c.Target, Lens: c.Lens()}
}

// wordCountsAction is the code action that shows the summary, offered in
// a chapter.
func wordCountsAction(uri protocol.DocumentURI) codeAction {
	return codeAction{Title: wordCountsActionTitle, Command: &actionCommand{Title: wordCountsActionTitle, Command: wire.CommandWordCounts,
		Arguments: []any{wire.BookParams{URI: uri}}}}
}
