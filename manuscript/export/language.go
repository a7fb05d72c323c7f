package export

import (
	"fmt"

	"github.com/quire-ink/quire/manuscript"
)

// guessLanguage sets the language of a book whose settings do not say
// it to the one its prose reads as (manuscript.GuessLanguage), and says
// so: a Russian novel built as English would have its e-book read aloud
// and its DOCX proofed as English. "" when the settings say it, the
// prose reads as English (the default) or as no language quire knows.
func (s *Settings) guessLanguage(units []*manuscript.Unit) string {
	if s.languageSet {
		return ""
	}
	texts := make([]string, 0, len(units))
	for _, u := range units {
		b := u.BodyRange()
		texts = append(texts, u.Text[b.Start:b.End])
	}
	tag := manuscript.GuessLanguage(texts...)
	if tag == "" || tag == s.Language {
		return ""
	}
	s.Language = tag
	return fmt.Sprintf("The book does not say its language (build: language in quire.yaml); its prose reads as %s, so the file is marked %q. Set build: language to choose another.",
		manuscript.LanguageName(tag), tag)
}
