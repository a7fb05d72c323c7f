package proposal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex"
)

// CreateArgs ask for a new entry. Fields and CustomFields are front
// matter, all strings.
type CreateArgs struct {
	EntryType     string            `json:"entryType"`
	Name          string            `json:"name"`
	ChangeSummary string            `json:"changeSummary"`
	Fields        map[string]string `json:"fields"`
	CustomFields  map[string]string `json:"customFields"`
	MarkdownBody  string            `json:"markdownBody"`
	SoulMarkdown  string            `json:"soulMarkdown"`
}

// reservedKeys are the front matter keys quire reads itself; a custom
// field may not use them.
var reservedKeys = map[string]bool{
	"type": true, "name": true, "title": true, "summary": true, "description": true,
	"aliases": true, "alias": true, "tags": true, "tag": true, "status": true,
	"locked": true, "mentions": true, "exclude": true,
}

var customKeyPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

// Create proposes a new entry of type t, a built-in type, as tool asked:
// its file at a free path (and a soul.md beside a character, in the
// folder shape), never over an existing file. Nothing is written. A
// request that cannot make a proposal is an *Error.
func Create(store *codex.Store, tool string, t codex.Type, args CreateArgs) (Draft, error) {
	return (&canonTarget{Store: store}).proposeCreate(tool, t, args)
}

func (ct *canonTarget) proposeCreate(tool string, t codex.Type, args CreateArgs) (Draft, error) {
	for field, s := range map[string]string{"markdownBody": args.MarkdownBody, "soulMarkdown": args.SoulMarkdown} {
		if err := CheckMarkdownSize(field, s); err != nil {
			return Draft{}, err
		}
	}
	name, err := checkName(args.Name)
	if err != nil {
		return Draft{}, err
	}
	summary, err := checkSummary(args.ChangeSummary)
	if err != nil {
		return Draft{}, err
	}
	if len(args.CustomFields) > maxCustomFields {
		return Draft{}, errorf(TooLarge, "customFields has %d fields, more than the %d allowed", len(args.CustomFields), maxCustomFields)
	}
	for _, m := range []map[string]string{args.Fields, args.CustomFields} {
		for k, v := range m {
			if utf8.RuneCountInString(v) > maxFieldValueChars {
				return Draft{}, errorf(TooLarge, "the value of %q is longer than %d characters", k, maxFieldValueChars)
			}
		}
	}
	if ct == nil || ct.Store == nil {
		return Draft{}, errorf(Failed, "no codex is open for this turn")
	}
	cat := ct.Store.Catalog()
	var warnings []string
	warnf := func(format string, a ...any) { warnings = append(warnings, fmt.Sprintf(format, a...)) }

	for _, m := range cat.Lookup(name, t) {
		if m.Kind == codex.MatchName || m.Kind == codex.MatchTitle || m.Kind == codex.MatchAlias {
			te := errorf(Ambiguous, "a %s named %q already exists at %s (as %s %q); use propose_codex_update to change it",
				t, name, m.Entry.ID, m.Kind, name)
			te.Candidates = []string{m.Entry.Name}
			return Draft{}, te
		}
	}
	for _, m := range cat.Lookup(name, "") {
		if m.Entry.Type != t && (m.Kind == codex.MatchName || m.Kind == codex.MatchTitle || m.Kind == codex.MatchAlias) {
			warnf("%q is also the %s of the %s %s (%s): links and mentions of that name become ambiguous", name, m.Kind, m.Entry.Type, m.Entry.Name, m.Entry.ID)
			break
		}
	}

	// Standard fields.
	var title, entrySummary string
	var aliases, tags []string
	custom := map[string]string{}
	for _, k := range sortedKeys(args.Fields) {
		v := strings.TrimSpace(args.Fields[k])
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "summary", "description":
			entrySummary = v
		case "aliases", "alias":
			aliases = splitList(v)
		case "tags", "tag":
			tags = splitList(v)
		case "title":
			title = v
		case "status":
			if v != "" && !strings.EqualFold(v, string(codex.StatusTentative)) {
				warnf("a new entry is proposed as tentative; status %q was not used", v)
			}
		case "type", "name":
			if v != "" && !strings.EqualFold(v, name) && !strings.EqualFold(v, string(t)) {
				warnf("fields.%s %q was not used: the entry's %s comes from the tool's own argument", k, v, k)
			}
		case "locked", "mentions", "exclude":
			warnf("fields.%s was not used: it is the writer's to set", k)
		default:
			custom[k] = v
		}
	}
	for k, v := range args.CustomFields {
		custom[k] = strings.TrimSpace(v)
	}
	for _, a := range aliases {
		if e, ok := cat.Resolve(a); ok && e.Type == t {
			warnf("the alias %q already names %s (%s)", a, e.Name, e.ID)
		}
	}

	// Front matter, in a fixed order.
	fm := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, value any, flow bool) error {
		var k, v yaml.Node
		if err := k.Encode(key); err != nil {
			return err
		}
		if err := v.Encode(value); err != nil {
			return err
		}
		if flow {
			v.Style = yaml.FlowStyle
		}
		fm.Content = append(fm.Content, &k, &v)
		return nil
	}
	type kv struct {
		key  string
		val  any
		flow bool
		skip bool
	}
	pairs := []kv{
		{"type", string(t), false, false},
		{"name", name, false, false},
		{"title", title, false, title == ""},
		{"aliases", aliases, true, len(aliases) == 0},
		{"summary", entrySummary, false, entrySummary == ""},
		{"tags", tags, true, len(tags) == 0},
		{"status", string(codex.StatusTentative), false, false},
	}
	for _, k := range sortedKeys(custom) {
		v := custom[k]
		key := strings.TrimSpace(k)
		switch {
		case v == "":
			continue
		case reservedKeys[strings.ToLower(key)]:
			warnf("custom field %q was not used: %q is a standard field (set it in fields)", k, key)
			continue
		case !customKeyPattern.MatchString(key):
			warnf("custom field %q was not used: a field name is a word of letters, digits, - and _", k)
			continue
		}
		pairs = append(pairs, kv{key, v, false, false})
	}
	for _, p := range pairs {
		if !p.skip {
			if err := add(p.key, p.val, p.flow); err != nil {
				return Draft{}, fmt.Errorf("building front matter: %w", err)
			}
		}
	}
	yml, err := marshalYAML(fm)
	if err != nil {
		return Draft{}, fmt.Errorf("building front matter: %w", err)
	}
	body := strings.Trim(strings.ReplaceAll(args.MarkdownBody, "\r\n", "\n"), "\n")
	var doc strings.Builder
	doc.WriteString("---\n" + yml + "---\n\n")
	if lvl, _, ok := headingLine(firstLine(body)); !ok || lvl != 1 {
		doc.WriteString("# " + name + "\n")
		if strings.TrimSpace(body) != "" {
			doc.WriteString("\n")
		}
	}
	if strings.TrimSpace(body) != "" {
		doc.WriteString(body + "\n")
	}
	content := doc.String()

	soul := strings.Trim(strings.ReplaceAll(args.SoulMarkdown, "\r\n", "\n"), "\n")
	if strings.TrimSpace(soul) == "" {
		soul = ""
	}
	if soul != "" && t != codex.TypeCharacter {
		warnf("only characters have a soul; soulMarkdown was not used for a %s", t)
		soul = ""
	}

	rel, soulRel := ct.freePath(cat, t, name, soul != "")
	ne, _ := codex.Parse(rel, []byte(content), t)
	if ne == nil || ne.Name != name || ne.Type != t {
		return Draft{}, fmt.Errorf("the proposed entry does not read back as %s %q", t, name)
	}

	edits := []FileEdit{{Path: rel, Create: true, NewText: content}}
	changes := []string{"create " + rel}
	if soul != "" {
		soul += "\n"
		edits = append(edits, FileEdit{Path: soulRel, Create: true, NewText: soul})
		changes = append(changes, "create "+soulRel)
	}
	diff, err := Diff(edits, nil)
	if err != nil {
		return Draft{}, fmt.Errorf("proposal diff: %w", err)
	}
	prop := Proposal{
		Diff:          diff,
		Tool:          tool,
		Kind:          KindCreate,
		EntryType:     t,
		Name:          name,
		ChangeSummary: summary,
		Path:          rel,
		SoulPath:      soulRel,
		Edits:         edits,
		Markdown:      content,
		SoulMarkdown:  soul,
		Warnings:      warnings,
		Created:       time.Now(),
	}
	return Draft{Proposal: prop, Changes: changes}, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// splitList reads a comma-separated list, dropping blanks and repeats.
func splitList(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" || seen[codex.Normalize(part)] {
			continue
		}
		seen[codex.Normalize(part)] = true
		out = append(out, part)
	}
	return out
}

// slugOf makes a file name from a name (codex.Slug), or one for its
// type when the name has no letter or digit.
func slugOf(name string, t codex.Type) string {
	if s := codex.Slug(name, maxSlugRunes); s != "" {
		return s
	}
	return "new-" + string(t)
}

// typeFolder is where entries of type t live: the folder most existing
// entries of that type use, when it is named for the type, or
// codex/<plural>.
func typeFolder(cat *codex.Catalog, t codex.Type) string {
	counts := map[string]int{}
	for _, e := range cat.OfType(t) {
		dir := path.Dir(e.ID)
		if path.Base(e.ID) == "index.md" {
			dir = path.Dir(dir)
		}
		if ft, ok := codex.TypeFromFolder(path.Base(dir)); ok && ft == t && dir != "." && !strings.HasPrefix(dir, "..") {
			counts[dir]++
		}
	}
	best, n := "codex/"+t.Plural(), 0
	for dir, c := range counts {
		if c > n || (c == n && dir < best) {
			best, n = dir, c
		}
	}
	return best
}

// freePath proposes where a new entry goes, never over an existing file:
// <folder>/<slug>.md, or <folder>/<slug>/index.md and soul.md with a
// soul; -2, -3… when taken.
func (ct *canonTarget) freePath(cat *codex.Catalog, t codex.Type, name string, withSoul bool) (string, string) {
	dir := typeFolder(cat, t)
	slug := slugOf(name, t)
	for n := 1; ; n++ {
		s := slug
		if n > 1 {
			s = fmt.Sprintf("%s-%d", slug, n)
		}
		flat, folder := path.Join(dir, s+".md"), path.Join(dir, s)
		if n < maxPathSuffix && (ct.taken(cat, flat) || ct.taken(cat, folder)) {
			continue
		}
		if n >= maxPathSuffix {
			s = fmt.Sprintf("%s-%s", slug, strings.TrimPrefix(newID(), "p-"))
			flat, folder = path.Join(dir, s+".md"), path.Join(dir, s)
		}
		if withSoul {
			return path.Join(folder, "index.md"), path.Join(folder, "soul.md")
		}
		return flat, ""
	}
}

// taken reports whether a project-relative path is in use: a known
// entry, or anything on disk. It only looks.
func (ct *canonTarget) taken(cat *codex.Catalog, rel string) bool {
	lower := strings.ToLower(rel)
	for _, e := range cat.All() {
		id := strings.ToLower(e.ID)
		if id == lower || strings.HasPrefix(id, lower+"/") {
			return true
		}
	}
	root := ct.Store.Root()
	if root == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
