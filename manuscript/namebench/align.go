package namebench

import (
	"fmt"
	"strings"
)

// AlignTokens finds LitBank's tokens (tokenized: a sentence a line, its
// tokens split by spaces) in text, the novel's own, in order: each
// sentence's tokens as byte ranges of text, and where the last one ends.
// Both importers of LitBank's annotations read the novels through it.
func AlignTokens(text, tokenized string) (sents [][][2]int, end int, err error) {
	pos := 0
	for _, line := range Tokens(tokenized) {
		var toks [][2]int
		for _, tok := range line {
			at, ok := findToken(text, pos, tok)
			if !ok {
				return nil, 0, fmt.Errorf("token %q not found after byte %d", tok, pos)
			}
			toks = append(toks, [2]int{at, at + len(tok)})
			pos = at + len(tok)
		}
		sents = append(sents, toks)
	}
	return sents, pos, nil
}

// Tokens are LitBank's tokens (tokenized: a sentence a line, its tokens
// split by spaces), a slice a sentence.
func Tokens(tokenized string) [][]string {
	var sents [][]string
	for _, line := range strings.Split(strings.TrimRight(tokenized, "\n"), "\n") {
		sents = append(sents, strings.Fields(line))
	}
	return sents
}

// findToken is the offset of tok in text from pos on. Between tokens the
// novel has whitespace and its own markup (underscores of italics); a
// token LitBank spells its own way is looked for a little further on.
func findToken(text string, pos int, tok string) (int, bool) {
	i := pos
	for i < len(text) && strings.ContainsRune(" \n\r\t_", rune(text[i])) {
		i++
	}
	if strings.HasPrefix(text[i:], tok) {
		return i, true
	}
	if j := strings.Index(text[pos:min(len(text), pos+200)], tok); j >= 0 {
		return pos + j, true
	}
	return 0, false
}
