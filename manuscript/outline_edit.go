package manuscript

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// TextEdit replaces Range of a file's text with NewText.
type TextEdit struct {
	Range   codex.Range `json:"range"`
	NewText string      `json:"newText"`
}

// Apply is text with the edit made.
func (e TextEdit) Apply(text string) string {
	return text[:e.Range.Start] + e.NewText + text[e.Range.End:]
}

// OutlineKeys a writer may set from an outline, in the order a new note
// lists them.
var outlineEditKeys = []string{"title", "pov", "day", "location", "flashback", "status", keySynopsis, keySynopsisHash}

// Field is one key to set; an empty Value removes the key.
type Field struct {
	Key   string
	Value string
}

// maxFieldValue bounds a value set from an outline: a synopsis is a
// paragraph.
const maxFieldValue = 4 << 10

// SetOutline is the edit that sets fields on scene n of the unit (0:
// the chapter, in its front matter), under r: the scene's note is
// changed in place, keeping the lines of every other key as the writer
// wrote them, or written after its break when it has none. Setting a
// synopsis keeps beside it the hash of the prose it was written for, so
// that it is current. The unit's text is not changed: the edit is the
// caller's to offer the writer.
func (u *Unit) SetOutline(r SceneRules, n int, fields ...Field) (TextEdit, error) {
	var set []Field
	for _, f := range fields {
		f.Value = strings.Join(strings.Fields(f.Value), " ")
		if !slices.Contains(outlineEditKeys, f.Key) {
			return TextEdit{}, fmt.Errorf("%q cannot be set from the outline; it sets %s", f.Key, strings.Join(outlineEditKeys[:len(outlineEditKeys)-1], ", "))
		}
		if len(f.Value) > maxFieldValue {
			return TextEdit{}, fmt.Errorf("the %s is longer than %d KB; keep it to a paragraph", f.Key, maxFieldValue>>10)
		}
		if strings.Contains(f.Value, "-->") {
			return TextEdit{}, fmt.Errorf("the %s cannot hold \"-->\", which would end the note", f.Key)
		}
		if f.Key == "status" && f.Value != "" {
			known, ok := r.Status(f.Value)
			if !ok {
				return TextEdit{}, fmt.Errorf("%q is not one of this book's statuses (%s)", f.Value, strings.Join(r.statuses(), ", "))
			}
			f.Value = known
		}
		set = append(set, f)
	}
	scenes := u.Scenes(r)
	if n < 0 || n > len(scenes) {
		return TextEdit{}, fmt.Errorf("%s has %d scenes; there is no scene %d", u.Title, len(scenes), n)
	}
	if n == 0 {
		if i := slices.IndexFunc(set, func(f Field) bool { return f.Key == keySynopsis && f.Value != "" }); i >= 0 {
			set = append(set, Field{keySynopsisHash, u.ProseHash()})
		}
		return u.setFrontMatter(set)
	}
	s := scenes[n-1]
	if i := slices.IndexFunc(set, func(f Field) bool { return f.Key == keySynopsis }); i >= 0 {
		hash := u.SceneHash(s)
		if set[i].Value == "" {
			hash = ""
		}
		set = append(set, Field{keySynopsisHash, hash})
	}
	if s.Note.Range == (codex.Range{}) {
		return u.newNote(s, set)
	}
	note := s.Note
	yamlText := u.Text[note.YAML.Start:note.YAML.End]
	lines, err := setKeys(yamlText, set)
	if err != nil {
		return TextEdit{}, err
	}
	// The note is written again whole, in block form: "<!-- scene", a
	// line per key, "-->".
	body := strings.Join(lines, "\n")
	newText := "<!-- scene\n" + body + "\n-->"
	if body == "" {
		newText = "<!-- scene -->"
	}
	end := note.Range.End
	if rest := u.Text[note.YAML.End:note.Range.End]; !strings.HasPrefix(rest, "-->") {
		// An unclosed note runs to its block's end; it is closed now.
		end = note.YAML.End
	} else {
		end = note.YAML.End + len("-->")
	}
	return TextEdit{Range: codex.Range{Start: note.Range.Start, End: end}, NewText: newText}, nil
}

// newNote is the edit that gives scene s a note of set.
func (u *Unit) newNote(s Scene, set []Field) (TextEdit, error) {
	lines, err := setKeys("", set)
	if err != nil {
		return TextEdit{}, err
	}
	if len(lines) == 0 {
		return TextEdit{Range: codex.Range{Start: s.Range.Start, End: s.Range.Start}}, nil
	}
	note := "<!-- scene\n" + strings.Join(lines, "\n") + "\n-->"
	at := s.Break.End
	if s.Break == (codex.Range{}) {
		// A first scene: after the chapter's title heading when it has
		// one, else at its start.
		at = -1
		for _, h := range u.Headings {
			if h.HeadingRange.Start >= s.Range.Start && h.HeadingRange.End <= s.Range.End && h.Level == 1 && !hasProse(u.Text, u.Code, s.Range.Start, h.HeadingRange.Start) {
				at = h.HeadingRange.End
				break
			}
		}
		if at < 0 {
			at = s.Range.Start
			for at < s.Range.End && (u.Text[at] == '\n' || u.Text[at] == '\r') {
				at++
			}
			return TextEdit{Range: codex.Range{Start: at, End: at}, NewText: note + "\n\n"}, nil
		}
	}
	return TextEdit{Range: codex.Range{Start: at, End: at}, NewText: "\n\n" + note}, nil
}

// setFrontMatter is the edit that sets fields in the chapter's front
// matter, which it adds when the chapter has none.
func (u *Unit) setFrontMatter(set []Field) (TextEdit, error) {
	fm := codex.Range{End: min(u.Body.Start, len(u.Text))}
	if fm.End == 0 {
		lines, err := setKeys("", set)
		if err != nil || len(lines) == 0 {
			return TextEdit{}, err
		}
		return TextEdit{NewText: "---\n" + strings.Join(lines, "\n") + "\n---\n"}, nil
	}
	f := readChapterFrontMatter(u.Text, fm)
	start := f.start
	end := frontMatterYAMLEnd(u.Text, fm)
	if start > end {
		start = end
	}
	yamlText := u.Text[start:end]
	if f.root == nil && strings.TrimSpace(yamlText) != "" {
		return TextEdit{}, errors.New("the chapter's front matter does not read as YAML keys; fix it first (quire check says where)")
	}
	lines, err := setKeys(yamlText, set)
	if err != nil {
		return TextEdit{}, err
	}
	newText := strings.Join(lines, "\n")
	if newText != "" {
		newText += "\n"
	}
	return TextEdit{Range: codex.Range{Start: start, End: end}, NewText: newText}, nil
}

// setKeys is the YAML src with each field set: a key it has keeps its
// place and loses its old lines, a new key is added at the end, an
// empty value removes the key. Keys set nothing of are kept line for
// line, comments and all; a mapping written in flow form ({a: 1}) is
// written again a key per line.
func setKeys(src string, set []Field) ([]string, error) {
	var doc yaml.Node
	if strings.TrimSpace(src) != "" {
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			return nil, errors.New("the note does not read as YAML keys; fix it first (quire check says where)")
		}
	}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
		if root.Kind != yaml.MappingNode {
			return nil, errors.New("the note does not read as keys (one per line, such as pov: Ilse Dorn); fix it first")
		}
	}
	value := map[string]string{}
	for _, f := range set {
		value[f.Key] = f.Value
	}
	done := map[string]bool{}
	var out []string
	line := func(key, v string) {
		if !done[key] && v != "" {
			out = append(out, key+": "+yamlScalar(v))
		}
		done[key] = true
	}
	if root != nil {
		srcLines := strings.Split(strings.TrimRight(src, "\r\n"), "\n")
		flow := root.Style&yaml.FlowStyle != 0
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			if nv, ok := value[k.Value]; ok {
				line(k.Value, nv)
				continue
			}
			if flow {
				b, _ := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{k, v}, Style: yaml.FlowStyle})
				out = append(out, strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(b)), "{"), "}"))
				continue
			}
			// The key's lines run to the next key's line.
			from, to := k.Line-1, len(srcLines)
			if i+2 < len(root.Content) {
				to = root.Content[i+2].Line - 1
			}
			for _, l := range srcLines[max(0, from):min(to, len(srcLines))] {
				if strings.TrimSpace(l) != "" || len(out) > 0 {
					out = append(out, strings.TrimRight(l, "\r"))
				}
			}
		}
		for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			out = out[:len(out)-1]
		}
	}
	for _, key := range outlineEditKeys {
		if v, ok := value[key]; ok {
			line(key, v)
		}
	}
	return out, nil
}

// yamlScalar writes v as a YAML value that reads back as the same text:
// plain where that is safe, else double-quoted (a JSON string is a YAML
// double-quoted scalar).
func yamlScalar(v string) string {
	var back map[string]any
	if err := yaml.Unmarshal([]byte("k: "+v), &back); err == nil {
		// yes, no, on and off are text to this reader and flags to
		// older ones: quoted, every reader agrees.
		yaml11 := slices.Contains([]string{"yes", "no", "on", "off", "y", "n"}, strings.ToLower(v))
		if s, ok := back["k"].(string); ok && s == v && !yaml11 && !strings.ContainsAny(v, "#:{}[]&*!|>'\"%@`") {
			return v
		}
		if _, isNum := back["k"].(int); isNum && fmt.Sprint(back["k"]) == v {
			return v
		}
		if b, isBool := back["k"].(bool); isBool && fmt.Sprint(b) == v {
			return v
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}
