package dialogue

import "github.com/quire-ink/quire/codex"

// Find finds the utterances of a chapter's text: body is the prose after
// any front matter, skip the code that is never speech.
func Find(text string, body codex.Range, skip []codex.Range, opts Options) []Utterance {
	return nil // being written
}
