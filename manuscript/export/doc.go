// Package export makes the manuscript into files a writer sends out: a
// standard manuscript or a book-like DOCX, an EPUB 3, and single-file
// Markdown and HTML for beta readers.
//
// Reading and writing are apart: Read turns the chapters of a snapshot,
// in reading order, into a small document model (paragraphs of plain,
// emphasised and strong runs, block quotes, list items, scene breaks,
// chapter titles), leaving out front matter, HTML comments and the
// brackets of [[links]]; each writer draws that model in its format.
// Every writer is deterministic: the same book gives the same bytes.
package export
