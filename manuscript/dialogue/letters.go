package dialogue

import (
	"strings"
	"unicode"

	"github.com/quire-ink/quire/codex"
	"github.com/quire-ink/quire/manuscript"
)

// A letter that the prose sets out in quotation marks is written, not
// spoken: nobody says it, and "Lines of" a character, the Spoken view and
// a dead character's lines must not count it. Novels print one as a run
// of paragraphs in quotation marks with no narration among them, opened by
// a salutation ("My dear Harriet," "DEAR SIR,") and closed by a
// valediction ("Yours ever," "I am, dear Sir, &c.") or a signature
// ("LYDIA BENNET."). Such a run is no dialogue, from its salutation (or,
// with none, the run's first paragraph) to its last valediction or
// signature, where it holds two of those three: a salutation and what
// closes it, or a valediction and the signature after it. One of them
// alone is too little: "Dear Jane," can be the whole of a line of speech.
//
// The Project Dialogism Novel Corpus, the dialogue benchmark's novels,
// counts no letter as a quotation, whether read aloud or not
// (docs/dialogue.md).

// withoutLetters is utts without the utterances that lie inside a letter.
// It returns utts itself when there is none, a new slice otherwise: utts
// is the scan's, which the next version of the chapter reads again.
func withoutLetters(text string, paras []paragraph, utts []Utterance) []Utterance {
	if len(utts) == 0 {
		return utts
	}
	// The marked stretches of paragraph k are all[at[k]:at[k+1]]: two
	// allocations for the chapter, not one a paragraph, for this runs
	// after every edit.
	n := 0
	for _, u := range utts {
		n += len(u.Marks)
	}
	all := make([]codex.Range, 0, n)
	at := make([]int32, len(paras)+1)
	k := 0
	for _, u := range utts {
		for _, m := range u.Marks {
			for k < len(paras) && paras[k].end <= m.Start {
				k++
				at[k] = int32(len(all))
			}
			if k < len(paras) {
				all = append(all, m)
			}
		}
	}
	for k < len(paras) {
		k++
		at[k] = int32(len(all))
	}
	marks := func(k int) []codex.Range { return all[at[k]:at[k+1]] }
	kinds := make([]letterPart, len(paras))
	quoted := make([]bool, len(paras))
	for k, p := range paras {
		ms := marks(k)
		quoted[k] = len(ms) > 0 && allInside(text, p, ms)
		// The name signed under a valediction in the paragraph before,
		// whatever its case ("Mary M---."), is a stretch of its own.
		after := k > 0 && kinds[k-1]&partValediction != 0 && len(ms) == 1
		kinds[k] = partOf(text, p, ms, quoted[k], after)
	}
	var letters []codex.Range // paragraph indexes, from and to inclusive
	for k := 0; k < len(paras); {
		if !quoted[k] && kinds[k] == 0 {
			k++
			continue
		}
		// A run: quoted paragraphs, and the salutations and signatures
		// set without marks among them.
		from := k
		for k < len(paras) && (quoted[k] || kinds[k] != 0) {
			k++
		}
		if l, ok := letterIn(kinds[from:k]); ok {
			letters = append(letters, codex.Range{Start: from + l.Start, End: from + l.End})
		}
	}
	if len(letters) == 0 {
		return utts
	}
	out := make([]Utterance, 0, len(utts))
	l := 0
	for _, u := range utts {
		first, last := u.Marks[0].Start, u.Marks[len(u.Marks)-1].End
		for l < len(letters) && paras[letters[l].End].end <= first {
			l++
		}
		if l < len(letters) && paras[letters[l].Start].start <= first && last <= paras[letters[l].End].end {
			continue
		}
		out = append(out, u)
	}
	return out
}

// letterPart is what a paragraph is to a letter: a bit set.
type letterPart uint8

const (
	partSalutation letterPart = 1 << iota
	partValediction
	partSignature
)

// letterIn finds the letter in a run of paragraphs: the paragraph indexes
// it covers, from and to inclusive.
func letterIn(kinds []letterPart) (codex.Range, bool) {
	salutation, valediction, end := -1, -1, -1
	for k, kind := range kinds {
		if kind&partSalutation != 0 && salutation < 0 {
			salutation = k
		}
		if kind&partValediction != 0 && valediction < 0 {
			valediction = k
		}
		if kind&(partValediction|partSignature) != 0 {
			end = k
		}
	}
	switch {
	case salutation >= 0 && end > salutation:
		return codex.Range{Start: salutation, End: end}, true
	case salutation < 0 && valediction >= 0 && end >= valediction && hasSignatureFrom(kinds, valediction):
		return codex.Range{Start: 0, End: end}, true
	}
	return codex.Range{}, false
}

// hasSignatureFrom says a signature follows the valediction at k, in its
// paragraph or a later one.
func hasSignatureFrom(kinds []letterPart, k int) bool {
	for _, kind := range kinds[k:] {
		if kind&partSignature != 0 {
			return true
		}
	}
	return false
}

// allInside says every letter and digit of paragraph p lies inside one
// of its marked stretches: a paragraph of speech that no narration tags.
func allInside(text string, p paragraph, marks []codex.Range) bool {
	at := p.start
	for _, m := range marks {
		if hasWordChar(text[at:max(at, m.Start)]) {
			return false
		}
		at = max(at, m.End)
	}
	return !hasWordChar(text[min(at, p.end):p.end])
}

func hasWordChar(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// partOf reads what paragraph p is to a letter, from its marked
// stretches when quoted, else from its whole text (a salutation or a
// signature set without marks). after says the paragraph before ended
// on a valediction.
func partOf(text string, p paragraph, marks []codex.Range, quoted, after bool) letterPart {
	if !quoted {
		s := strings.Trim(text[p.start:p.end], " \t\r\n\"“”'‘’_*>")
		var kind letterPart
		if salutation(s) {
			kind |= partSalutation
		}
		if signature(s) {
			kind |= partSignature
		}
		return kind
	}
	var kind letterPart
	signed := after // the stretch before ended on a valediction
	for i, m := range marks {
		s := trimMarks(text[m.Start:m.End])
		if i == 0 && salutation(s) {
			kind |= partSalutation
		}
		// The name signed under a valediction, whatever its case; an
		// upper-case name anywhere ("LYDIA BENNET.").
		if signature(s) || signed && shortName(s) {
			kind |= partSignature
		}
		signed = valediction(lastSentence(s))
		if signed {
			kind |= partValediction
		}
	}
	return kind
}

// trimMarks is a marked stretch without its marks, the white space inside
// them and Markdown's emphasis.
func trimMarks(s string) string { return strings.Trim(s, " \t\r\n\"“”'‘’_*") }

// lastSentence is the last sentence of s: a valediction often closes the
// letter's last paragraph ("… and everything proper.  Yours
// affectionately,").
func lastSentence(s string) string {
	for i := len(s) - 2; i > 0; i-- {
		if (s[i] == ' ' || s[i] == '\n') && strings.ContainsRune(".!?", rune(s[i-1])) && !abbreviationBefore(s, i-1) {
			return strings.TrimSpace(s[i:])
		}
	}
	return s
}

// salutation says s opens a letter: a few words from "Dear" or "My dear"
// to a comma or colon, the one addressed named in capitals ("My dearest
// Lizzy,", "DEAR SIR,"), not "Dear me,".
func salutation(s string) bool {
	if len(s) > 80 || !strings.HasSuffix(s, ",") && !strings.HasSuffix(s, ":") || wordCount(s) > 6 {
		return false
	}
	words := strings.Fields(s)
	i := 0
	if strings.EqualFold(words[0], "my") {
		i++
	}
	if i >= len(words)-1 || !strings.EqualFold(words[i], "dear") && !strings.EqualFold(words[i], "dearest") {
		return false
	}
	return unicode.IsUpper(firstLetter(words[i+1]))
}

// valediction says s closes a letter: a few words to a comma, or with
// the etceteras of a closing ("Yours, &c."), in the forms novels use.
func valediction(s string) bool {
	if len(s) > 120 || wordCount(s) > 8 {
		return false
	}
	if strings.Contains(s, "&c") {
		return true
	}
	if !strings.HasSuffix(s, ",") {
		return false
	}
	l := strings.ToLower(s)
	for _, p := range valedictions {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// valedictions open the closings letters are signed under.
var valedictions = []string{"yours", "your's", "your ", "ever yours", "ever your", "believe me", "i am, ", "i remain", "i am ever", "i am yours", "i am your"}

// signature says s is a name signed in capitals: at most four words, at
// least two letters, none of them lower case ("LYDIA BENNET.", "A. W.").
func signature(s string) bool {
	return shortName(s) && !strings.ContainsAny(s, "!?") && manuscript.IsShouted(s)
}

// shortName says s is short enough to be a name signed: at most four
// words and 48 bytes.
func shortName(s string) bool {
	return s != "" && len(s) <= 48 && wordCount(s) <= 4
}

// wordCount counts the words of s split at white space, without
// allocating: it is asked of every utterance's last sentence.
func wordCount(s string) int {
	n, in := 0, false
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}
