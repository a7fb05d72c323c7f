// Package bookmap draws a book at a glance: which codex entries appear in
// which chapters (a heatmap), how many words each character speaks in
// each chapter and each chapter's share of dialogue (a second heatmap),
// when the chapters happen in story time (a timeline by day, point of
// view and place), and how the entries hang together (a graph of
// [[links]] and shared chapters). Build turns what quire already knows
// of a book (its catalog, the manuscript's mention index, the chapters'
// story-time front matter, their dialogue and its speakers) into a Map;
// Write renders a Map as one self-contained HTML page with no network
// access.
//
// Like codex and manuscript it knows nothing of LSP or LLMs. Everything is
// deterministic: the same book gives the same bytes, so tests compare
// pages and a map rewritten after a save changes only where the book did.
package bookmap
