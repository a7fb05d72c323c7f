package manuscript

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// Problem codes of scene notes and of a synopsis or status.
const (
	// CodeSceneNote is a scene note quire cannot use: not at a scene's
	// start, or not a mapping of keys.
	CodeSceneNote = "scene-note"
	// CodeSceneStatus is a status the book's statuses do not hold.
	CodeSceneStatus = "scene-status"
	// CodeStaleSynopsis is a synopsis written for text that has changed
	// since.
	CodeStaleSynopsis = "stale-synopsis"
)

// SceneNote is what a scene says about itself in the HTML comment that
// opens it, or a chapter in its front matter: story time where it
// differs from its chapter's, and the writer's synopsis and status.
//
//	<!-- scene
//	pov: Ilse Dorn
//	day: 15
//	status: draft
//	synopsis: Ilse finds the ledger under the floor.
//	synopsis-hash: 3f2a9c1b7d0e
//	-->
type SceneNote struct {
	// Range covers the whole comment; zero for a chapter's front matter.
	Range codex.Range `json:"range"`
	// Meta is the story time the note gives: pov, day, location,
	// flashback, each unset where the note is silent.
	Meta ChapterMeta `json:"meta,omitzero"`
	// Title names a scene that no heading names.
	Title      string      `json:"title,omitempty"`
	TitleRange codex.Range `json:"titleRange"`
	// Synopsis is the writer's summary of the scene.
	Synopsis      string      `json:"synopsis,omitempty"`
	SynopsisRange codex.Range `json:"synopsisRange"`
	// SynopsisHash is the ProseHash of the text the synopsis was written
	// for; empty when the writer typed the synopsis without one.
	SynopsisHash      string      `json:"synopsisHash,omitempty"`
	SynopsisHashRange codex.Range `json:"synopsisHashRange"`
	// Status is the writer's status (idea, draft, revised, final by
	// default), spelled as the book's statuses spell it.
	Status      string      `json:"status,omitempty"`
	StatusRange codex.Range `json:"statusRange"`
	// YAML is where the keys are written: inside the comment, or the
	// front matter's body. An edit adds a key at its end.
	YAML codex.Range `json:"yaml"`
	// Problems are values that could not be read, located in the file.
	Problems []codex.Problem `json:"problems,omitempty"`
}

// Stale says whether the synopsis was written for other text than the
// prose whose hash is now.
func (n SceneNote) Stale(now string) bool {
	return n.Synopsis != "" && n.SynopsisHash != "" && n.SynopsisHash != now
}

// Synopsis and status keys, as a writer types them.
const (
	keySynopsis     = "synopsis"
	keySynopsisHash = "synopsis-hash"
	keyStatus       = "status"
	keyTitle        = "title"
)

// maxNoteBytes bounds a scene note: a synopsis is a paragraph, and a
// note of megabytes is a mistake to report, not YAML to parse.
const maxNoteBytes = 64 << 10

// noteYAML is the YAML of an HTML block that is a scene note, and
// whether it is one: the comment's text after `<!--`, the word scene
// and an optional colon, up to `-->`.
func noteYAML(block string) (codex.Range, bool) {
	const open = "<!--"
	if !strings.HasPrefix(block, open) {
		return codex.Range{}, false
	}
	i := len(open)
	for i < len(block) && (block[i] == ' ' || block[i] == '\t') {
		i++
	}
	if !strings.HasPrefix(strings.ToLower(block[i:min(len(block), i+5)]), "scene") {
		return codex.Range{}, false
	}
	i += 5
	if i < len(block) && block[i] == ':' {
		i++
	}
	// "scenery" is no note; the word must end there.
	if i < len(block) && !strings.ContainsRune(" \t\r\n-", rune(block[i])) {
		return codex.Range{}, false
	}
	end := strings.Index(block[i:], "-->")
	if end < 0 {
		end = len(block)
	} else {
		end += i
	}
	return codex.Range{Start: i, End: end}, true
}

// readSceneNote reads the note at n of text, in the file path.
func readSceneNote(text string, n codex.Range, path string, r SceneRules) SceneNote {
	y, _ := noteYAML(text[n.Start:n.End])
	y = codex.Range{Start: n.Start + y.Start, End: n.Start + y.End}
	note := SceneNote{Range: n, YAML: y}
	problem := func(rng codex.Range, format string, args ...any) {
		note.Problems = append(note.Problems, codex.Problem{Path: path, Code: CodeSceneNote,
			Severity: codex.SeverityWarning, Message: fmt.Sprintf(format, args...), Range: rng})
	}
	if y.Len() > maxNoteBytes {
		problem(noteHead(text, n), "this scene note is longer than %d KB and is not read; keep a note to its keys and a short synopsis", maxNoteBytes>>10)
		return note
	}
	f := chapterFrontMatter{text: text, start: y.Start}
	src := text[y.Start:y.End]
	if strings.TrimSpace(src) == "" {
		return note
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		problem(noteHead(text, n), "this scene note is not read: after `<!-- scene` it needs keys, one per line, such as `pov: Ilse Dorn` or `synopsis: Ilse finds the ledger.`")
		return note
	}
	f.root = doc.Content[0]
	note.Meta = f.meta(path)
	// The problems of story time are the note's, found by meta.
	for i := range note.Meta.Problems {
		note.Meta.Problems[i].Code = CodeSceneNote
	}
	note.Problems = append(note.Problems, note.Meta.Problems...)
	note.Meta.Problems = nil
	note.readOutline(f, path, r)
	return note
}

// readOutline reads the synopsis, its hash, the status and the title
// from f, the note's or the front matter's keys.
func (n *SceneNote) readOutline(f chapterFrontMatter, path string, r SceneRules) {
	text := func(key string) (string, codex.Range, bool) {
		v := f.value(key)
		if v == nil || v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
			return "", codex.Range{}, false
		}
		if v.Kind != yaml.ScalarNode {
			n.Problems = append(n.Problems, codex.Problem{Path: path, Code: CodeSceneNote, Severity: codex.SeverityWarning, Range: f.nodeRange(v),
				Message: fmt.Sprintf("`%s` is text; a list or mapping is not read", key)})
			return "", codex.Range{}, false
		}
		return strings.Join(strings.Fields(v.Value), " "), f.nodeRange(v), true
	}
	n.Synopsis, n.SynopsisRange, _ = text(keySynopsis)
	n.Title, n.TitleRange, _ = text(keyTitle)
	n.SynopsisHash, n.SynopsisHashRange, _ = text(keySynopsisHash)
	if s, rng, ok := text(keyStatus); ok && s != "" {
		known, ok := r.Status(s)
		n.Status, n.StatusRange = known, rng
		if !ok {
			n.Problems = append(n.Problems, codex.Problem{Path: path, Code: CodeSceneStatus, Severity: codex.SeverityWarning, Range: rng,
				Message: fmt.Sprintf("status %q is not one of this book's statuses (%s); quire.yaml's outline: statuses can add it", s, strings.Join(r.statuses(), ", "))})
		}
	}
}

// ChapterNote is what a chapter's front matter says of its synopsis and
// status, under r; its Meta is the chapter's story time (u.Meta).
func (u *Unit) ChapterNote(r SceneRules) SceneNote {
	fm := codex.Range{End: min(u.Body.Start, len(u.Text))}
	f := readChapterFrontMatter(u.Text, fm)
	n := SceneNote{Meta: u.Meta}
	if f.root == nil {
		return n
	}
	n.YAML = codex.Range{Start: f.start, End: frontMatterYAMLEnd(u.Text, fm)}
	n.readOutline(f, u.Path, r)
	return n
}

// frontMatterYAMLEnd is where the YAML of the front matter fm ends: at
// the start of its closing fence line.
func frontMatterYAMLEnd(text string, fm codex.Range) int {
	block := strings.TrimRight(text[fm.Start:fm.End], "\r\n")
	if i := strings.LastIndexByte(block, '\n'); i >= 0 && isFenceLine(block[i+1:]) {
		return fm.Start + i + 1
	}
	return fm.End
}

// ProseHash is the fingerprint of the chapter's prose, scene notes and
// markup left out, for a chapter's synopsis.
func (u *Unit) ProseHash() string {
	body := u.Body
	if body.End > len(u.Text) || body.Start > body.End {
		body = codex.Range{End: len(u.Text)}
	}
	return proseHashOf(u.Text, u.Code, body)
}

// ProseHash fingerprints prose for a synopsis: its words, however the
// lines fall, so that a synopsis goes stale when the writer changes
// what the scene says, not when they rewrap it. Twelve hex digits of
// SHA-256: short enough to sit in a note, long enough never to collide
// by chance within a book.
func ProseHash(prose string) string {
	var h proseHasher
	h.words(prose)
	return h.sum()
}

// proseHasher hashes the words of the text it is given, each followed
// by one space, as strings.Fields splits them, without holding them:
// a chapter is hashed on every keystroke.
type proseHasher struct {
	h   hash.Hash
	buf [4096]byte
	n   int
}

func (p *proseHasher) byte(c byte) {
	if p.n == len(p.buf) {
		p.flush()
	}
	p.buf[p.n] = c
	p.n++
}

func (p *proseHasher) flush() {
	if p.h == nil {
		p.h = sha256.New()
	}
	p.h.Write(p.buf[:p.n])
	p.n = 0
}

// words adds the words of s.
func (p *proseHasher) words(s string) {
	in := false
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		space := asciiSpace[c] != 0
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		switch {
		case space && in:
			p.byte(' ')
			in = false
		case !space:
			for j := range size {
				p.byte(s[i+j])
			}
			in = true
		}
		i += size
	}
	if in {
		p.byte(' ')
	}
}

func (p *proseHasher) sum() string {
	p.flush()
	var out [sha256.Size]byte
	return hex.EncodeToString(p.h.Sum(out[:0])[:6])
}

var asciiSpace = [256]uint8{'\t': 1, '\n': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1}
