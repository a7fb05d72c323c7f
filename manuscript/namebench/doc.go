// Package namebench measures how well quire finds the names of a codex in
// real novels: mentions against people's annotations, beside a plain
// case-sensitive grep of the same names, and misspelled names planted in
// a whole novel. Its data are the excerpts of 100
// public-domain novels that LitBank annotates (Bamman, Lewke and Mansoor,
// "An Annotated Dataset of Coreference in English Literature", LREC 2020;
// CC BY 4.0), brought into the novels' own text by litbank-import.
//
// The mention benchmark splits the excerpts in two (split.go): 70 for
// development, which rules and floors may be tuned on, and 30 held out,
// frozen, reported apart and never tuned on.
package namebench
