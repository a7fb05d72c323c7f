// Package dialogue finds the speech in a chapter and decides who speaks
// it. It reads quotation marks in every common typographic convention
// (straight and curly double and single quotes with nesting, guillemets,
// German low-high quotes, a dash that opens a paragraph of speech) and
// attributes each utterance to a codex character by a fixed chain of
// rules, each of which a writer can follow: a speech verb beside a name,
// a pronoun beside a speech verb resolved to the last character it fits,
// a vocative in the neighbouring speech, a character named in the
// paragraph's narration, and the turns of a conversation of two. A line
// in the chapter (an HTML comment the build leaves out) overrides the
// rules for one utterance. The rules attribute a chapter conversation by
// conversation, so that after an edit AnalyzeAfter attributes again only
// the conversations the edit reached. Like manuscript, it knows nothing of LSP or
// LLMs; positions are byte offsets into the chapter's text.
package dialogue
