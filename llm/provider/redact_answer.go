package provider

import (
	"strings"
	"unicode/utf8"
)

// The key in use never comes back out of quire through a provider's
// answer: a provider (or a model told to) may echo the Authorization
// header in a reply that succeeds, and that text goes to the terminal,
// the editor and the answer document. Error texts are redacted apart
// (redactError), with the looser rules fit for a log line; an answer is
// prose, so only the keys themselves are taken out of it.

// redactKeys replaces every key of at least minKeyLen bytes in s.
func redactKeys(s string, keys []string) string {
	for _, k := range keys {
		if len(k) >= minKeyLen {
			s = strings.ReplaceAll(s, k, redactedSecret)
		}
	}
	return s
}

// redactMessage takes the keys out of every text of a reply.
func redactMessage(m *Message, keys []string) {
	m.Content = redactKeys(m.Content, keys)
	m.Reasoning = redactKeys(m.Reasoning, keys)
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		c.Name = redactKeys(c.Name, keys)
		// "[redacted]" holds no quote or backslash: JSON stays JSON.
		c.Arguments = redactKeys(c.Arguments, keys)
	}
}

// streamRedactor passes streamed text on with the keys taken out, even
// when a key arrives split across pieces: it holds back the last
// len(longest key)-1 bytes, which could be the start of a key, until the
// next piece (or flush) shows they are not.
type streamRedactor struct {
	keys    []string
	hold    int
	pending string
	emit    func(string)
}

func newStreamRedactor(keys []string, emit func(string)) *streamRedactor {
	r := &streamRedactor{emit: emit}
	for _, k := range keys {
		if len(k) >= minKeyLen {
			r.keys = append(r.keys, k)
			r.hold = max(r.hold, len(k)-1)
		}
	}
	return r
}

func (r *streamRedactor) write(s string) {
	if s == "" {
		return
	}
	r.pending = redactKeys(r.pending+s, r.keys)
	cut := len(r.pending) - r.hold
	// A piece ends on a whole character: an editor gets each piece as a
	// JSON string, where half a character would become U+FFFD.
	for cut > 0 && cut < len(r.pending) && !utf8.RuneStart(r.pending[cut]) {
		cut--
	}
	if cut <= 0 {
		return
	}
	out := r.pending[:cut]
	r.pending = r.pending[cut:]
	r.emit(out)
}

// flush passes on what was held back: the stream has ended.
func (r *streamRedactor) flush() {
	if r.pending != "" {
		out := r.pending
		r.pending = ""
		r.emit(out)
	}
}
