package dialogue

import (
	"strconv"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/codex/benchtest"
	"github.com/quire-ink/quire/manuscript"
	"github.com/quire-ink/quire/manuscript/dialogue/dialoguetest"
)

// BenchmarkAnalyzeNovel attributes the whole of Pride and Prejudice as
// one text, its mentions found beforehand (the server has them from its
// mention index): the budget is 150 ms for 120,000 words.
func BenchmarkAnalyzeNovel(b *testing.B) {
	text, entries := dialoguetest.PrideAndPrejudice(b), dialoguetest.Cast(b)
	ch := Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: manuscript.NewMatcherOf(entries).ScanAll(text)}
	cast := NewCast(entries)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		Analyze(ch, cast, Options{})
	}
}

// BenchmarkAnalyzeChapter attributes a 5,000-word stretch of the novel,
// a long chapter's worth.
func BenchmarkAnalyzeChapter(b *testing.B) {
	text, entries := dialoguetest.PrideAndPrejudice(b), dialoguetest.Cast(b)
	text = dialoguetest.Stretch(text, 5000)
	ch := Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: manuscript.NewMatcherOf(entries).ScanAll(text)}
	cast := NewCast(entries)
	b.ResetTimer()
	for range b.N {
		Analyze(ch, cast, Options{})
	}
}

// BenchmarkAttributeAfterEdit is what an edit of a 5,000-word chapter
// costs the server's dialogue: its speech found and attributed again,
// whole (Analyze) or taking from the version before the conversations
// the edit did not reach (AnalyzeAfter, what the server does), with the
// names the mention index found. Percentiles over the edits.
func BenchmarkAttributeAfterEdit(b *testing.B) {
	text, entries := dialoguetest.PrideAndPrejudice(b), dialoguetest.Cast(b)
	text = dialoguetest.Stretch(text, 5000)
	m := manuscript.NewMatcherOf(entries)
	cast := NewCast(entries)
	chapter := func(text string) Chapter {
		return Chapter{Text: text, Body: codex.Range{End: len(text)}, Mentions: m.Scan(text)}
	}
	for _, after := range []bool{false, true} {
		name := "whole"
		if after {
			name = "after"
		}
		b.Run(name, func(b *testing.B) {
			prev := AnalyzeAfter(nil, chapter(text), cast, Options{})
			lat := make([]time.Duration, 0, b.N)
			reused, total := 0, 0
			b.ResetTimer()
			for i := range b.N {
				// An edit: a word typed into a line in the middle of the
				// chapter. Its names are scanned by the mention index,
				// which the server keeps for every version; attribution
				// reads them from there.
				b.StopTimer()
				at := prev.Utterances()[len(prev.Utterances())/2].Spans[0].Start
				edited := text[:at] + strconv.Itoa(i%10) + text[at:]
				ch := chapter(edited)
				b.StartTimer()
				start := time.Now()
				if after {
					an := AnalyzeAfter(prev, ch, cast, Options{})
					r, c := an.Reused()
					reused, total = reused+r, total+c
				} else {
					Analyze(ch, cast, Options{})
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			benchtest.ReportLatencies(b, lat)
			if total > 0 {
				b.ReportMetric(float64(total-reused)/float64(b.N), "attributed-conversations/op")
			}
		})
	}
}
