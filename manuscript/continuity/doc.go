// Package continuity makes canon a function of story time and checks a
// chapter against it with no model: the codex entries as of a chapter
// (their progressions applied), and the continuity and style diagnostics
// of one chapter — trait contradictions, the dead speaking (by the
// chapter's dialogue attribution, manuscript/dialogue) or acting, days
// out of order, pov and location naming nothing, style rules broken.
// Like codex and manuscript it knows nothing of LSP or LLMs; positions
// are byte offsets.
//
// The flashback rule. A progression `from: F` holds in chapter C when F
// comes at or before C in reading order. A chapter marked `flashback:
// true` takes its own place in story time only where its front matter
// gives a `day`: then a progression holds in it only if, besides, the
// story day of F is not later than the flashback's day (the story day of
// a chapter is its own `day`, else that of the nearest earlier chapter
// that is no flashback and has one; a progression from a chapter with no
// known day is taken by reading order). A flashback without a day sees
// canon as of its place in the book. After-death checks never run in a
// flashback, and a flashback is never out of timeline order.
package continuity
