package codex

// Story is what e says about story time (StoryOf), read in c: a book
// entry that overrides a series entry in a book's catalog merged with
// its series keeps the series entry's progressions under its own.
func (c *Catalog) Story(e *Entry) Story {
	if src, ok := c.over[e]; ok {
		return seriesStory(e, src)
	}
	return StoryOf(e)
}

// seriesStory is the story time of e, a book entry that overrides the
// series entry src.Series: the series entry's progressions first, then
// the book's, so that a writer who overrides an entry for one book keeps
// what the series says happens to it and adds what happens in this book.
// Each series progression carries its file (Progression.File), since its
// ranges are in the series file. Which one holds where two set the same
// field is story time's to say (continuity.Timeline applies them in
// story order, the book's last at the same chapter). The status and the
// style rules as written are the book's when its front matter sets
// them, else the series'.
func seriesStory(e *Entry, src *SeriesSource) Story {
	book := StoryOf(e)
	series := StoryOf(src.Series)
	out := Story{Status: book.Status, Rules: book.Rules}
	if src.Of("status") == OriginSeries {
		out.Status = series.Status
	}
	if src.Of("rules") == OriginSeries {
		out.Rules = series.Rules
	}
	file := src.File()
	if len(series.Progressions) > 0 {
		out.Progressions = make([]Progression, 0, len(series.Progressions)+len(book.Progressions))
		for _, p := range series.Progressions {
			p.File, p.Source = file, src.Series.Source
			out.Progressions = append(out.Progressions, p)
		}
		out.Progressions = append(out.Progressions, book.Progressions...)
	} else {
		out.Progressions = book.Progressions
	}
	// The series entry's problems stand in its own file; the book's in
	// the book's.
	for _, p := range series.Problems {
		p.Path = file
		out.Problems = append(out.Problems, p)
	}
	out.Problems = append(out.Problems, book.Problems...)
	return out
}
