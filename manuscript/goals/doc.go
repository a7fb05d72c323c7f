// Package goals reads a book's word goals (the `goals:` section of
// quire.yaml and the writer's config.yaml, and a chapter's `target:`)
// and sums a book's counts, its history and its goals into the Summary
// that `quire stats`, the quire/stats request, the code lens and every
// editor show: one computation, so that every figure is the same
// everywhere. The counting rule itself is manuscript.CountWords.
package goals
