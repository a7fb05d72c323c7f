// Package dialoguebench measures how well quire finds the speech in real
// novels and says who speaks it (manuscript/dialogue), against people's
// annotations, beside a baseline a plain script would be: double
// quotation marks found by a regular expression and a speaker only where
// a name stands right beside a speech verb. A writer trusts a speaker
// quire names only if it is nearly always right, so the benchmark counts
// detection strictly (an utterance a tag interrupts must be found as one
// utterance), speakers by how the text gives them (a name, a pronoun,
// nothing at all) and the precision of the speakers quire is certain of.
//
// Its data are LitBank's quotations (Sims and Bamman, "Measuring
// Information Propagation in Literary Social Networks", EMNLP 2020; CC
// BY 4.0), brought into the novels' own text by litbank-quotes-import
// and kept in testdata, and the Project Dialogism Novel Corpus
// (Vishnubhotla, Hammond and Hirst, LREC 2022): whole novels with every
// quotation's speaker, whose files state no licence and so are read from
// a local copy (QUIRE_PDNC; testdata/README.md says how to get it). Eight
// of its novels are the development set; the others are a held-out
// measure, scored only when asked, never tuned on.
package dialoguebench
