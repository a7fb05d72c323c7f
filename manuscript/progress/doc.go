// Package progress keeps a book's writing history outside the book: per
// day, the book's word count at the day's first sight and at its last,
// the words added (gross) and the net change. Every way quire sees the
// text (the editor's unsaved text, saves, `quire stats` runs, several
// processes) lands in the one file without double counting, because the
// file keeps each chapter's count as last seen: words are added to a day
// only where a chapter's count rose above what any quire last saw of it.
//
// A chapter seen for the first time is a baseline, not words written:
// renaming a chapter, or pointing quire at a finished book, adds nothing
// to a day's gross (its net still moves with the book's total).
package progress
