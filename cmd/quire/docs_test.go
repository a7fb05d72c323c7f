package main

// The documentation is checked against the code, so that the two cannot
// drift apart again: every command and flag of the command line, every
// quire.yaml setting, every continuity check, every VS Code command and
// setting, every Neovim command, and every custom request and command of
// the language server must be named on its page, and every relative link
// in the documents must lead to a file that exists. A name the code
// gains and the docs lack fails here with the page to add it to.

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm/endpoint"
	"github.com/quire-ink/quire/llm/tools"
	"github.com/quire-ink/quire/manuscript/continuity"
	"github.com/quire-ink/quire/manuscript/dialogue"
	"github.com/quire-ink/quire/manuscript/export"
	"github.com/quire-ink/quire/manuscript/goals"
	"github.com/quire-ink/quire/manuscript/snapshot"
)

// repoRoot is the repository, two folders above this package.
const repoRoot = "../.."

// docPage is the text of one file of the repository, by its path from
// the repository's root.
func docPage(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("the documentation page %s: %v", rel, err)
	}
	return string(b)
}

// missing reports each name of names that page does not contain (as
// want(name) says it should be written), naming the page.
func missing(t *testing.T, page, text string, names []string, want func(string) []string) {
	t.Helper()
	text = flat(text)
	for _, name := range names {
		forms := want(name)
		found := false
		for _, f := range forms {
			if strings.Contains(text, f) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s does not mention %s (write it as %s)", page, name, strings.Join(quoteAll(forms), " or "))
		}
	}
}

// flat is text with every run of white space made one space, so that a
// name wrapped across lines is still found.
func flat(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strconv.Quote(x)
	}
	return out
}

func code(s string) []string { return []string{"`" + s + "`", "`" + s + " ", "`" + s + "["} }

// TestDocsNameEveryCommand: every subcommand of quire, at any depth, and
// every flag a writer can see, is on docs/cli.md. A command is written
// `quire key set`; a flag --name (or -n) on the same page.
func TestDocsNameEveryCommand(t *testing.T) {
	const page = "docs/cli.md"
	text := docPage(t, page)
	root := newRootCommand(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
	var commands, flags []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		if c != root {
			commands = append(commands, c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" && f.Name != "version" {
				flags = append(flags, "--"+f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root.InitDefaultHelpCmd()
	walk(root)
	if len(commands) < 15 {
		t.Fatalf("only %d commands found under quire: %v", len(commands), commands)
	}
	missing(t, page, text, commands, func(s string) []string { return code(s) })
	slices.Sort(flags)
	missing(t, page, text, slices.Compact(flags), func(s string) []string { return []string{s} })
}

// TestDocsNameEverySetting: every key of quire.yaml quire reads (the top
// level, and the keys of provider:, limits:, personas:, mcp_servers:,
// actions: and audience:) is on docs/quire-yaml.md as `key:`, and every
// continuity check, which checks: sets, on docs/story-time.md.
func TestDocsNameEverySetting(t *testing.T) {
	const page = "docs/quire-yaml.md"
	text := docPage(t, page)
	yamlKey := func(s string) []string { return []string{s + ":", "`" + s + "`"} }

	missing(t, page, text, settings.Keys, yamlKey)
	missing(t, page, text, goals.Keys, yamlKey)
	missing(t, page, text, snapshot.Keys, yamlKey)
	missing(t, page, text, yamlTags(reflect.TypeOf(endpoint.ProviderSettings{})), yamlKey)
	missing(t, page, text, yamlTags(reflect.TypeOf(tools.Scope{})), yamlKey)
	missing(t, page, text, export.BuildKeys(), yamlKey)
	missing(t, page, text, dialogue.SettingsKeys(), yamlKey)

	// The sections' readers: the advisor's own, its endpoints', its actions'.
	src := goSource(t, "llm/advisor", "llm/endpoint", "llm/actions")
	for _, section := range []struct{ what, fn string }{
		{"limits:", "readLimits"},
		{"personas:", "readPersonas"},
		{"mcp_servers:", "readMCPServer"},
	} {
		keys := caseStrings(src, section.fn)
		if len(keys) == 0 {
			t.Errorf("no keys found for %s in %s: the test must learn where they are now", section.what, section.fn)
		}
		missing(t, page, text, keys, yamlKey)
	}
	actionKeys := stringSlice(src, "actionKeys")
	if len(actionKeys) == 0 {
		t.Error("no keys found for actions: in actionKeys: the test must learn where they are now")
	}
	missing(t, page, text, actionKeys, yamlKey)
	missing(t, page, text, structTags(src, "settingsFile"), yamlKey)

	missing(t, "docs/story-time.md", docPage(t, "docs/story-time.md"), continuity.Checks, func(s string) []string { return code(s) })
}

// TestDocsNameEveryEditorCommand: every command and setting the VS Code
// extension contributes is on its page (by title, as the palette shows
// it, or by id), and every :Quire subcommand of the Neovim plugin is on
// its page (as :Quire<Name>, or :Quire <name> for those without one).
func TestDocsNameEveryEditorCommand(t *testing.T) {
	var pkg struct {
		Contributes struct {
			Commands []struct {
				Command, Title, Category string
			}
			Configuration struct {
				Properties map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(docPage(t, "editors/vscode/package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	const vscode = "editors/vscode/README.md"
	vtext := flat(docPage(t, vscode))
	if len(pkg.Contributes.Commands) == 0 {
		t.Fatal("editors/vscode/package.json contributes no commands")
	}
	for _, c := range pkg.Contributes.Commands {
		title := c.Category + ": " + c.Title
		if !strings.Contains(vtext, title) && !strings.Contains(vtext, "`"+c.Command+"`") {
			t.Errorf("%s does not mention the command %s (write it as **%s**)", vscode, c.Command, title)
		}
	}
	var props []string
	for k := range pkg.Contributes.Configuration.Properties {
		props = append(props, k)
	}
	slices.Sort(props)
	missing(t, vscode, vtext, props, func(s string) []string { return []string{"`" + s + "`"} })

	const nvim = "editors/nvim/README.md"
	ntext := docPage(t, nvim)
	lua := docPage(t, "editors/nvim/lua/quire/commands.lua")
	start := strings.Index(lua, "M.list = {")
	if start < 0 {
		t.Fatal("editors/nvim/lua/quire/commands.lua has no M.list: the test must learn where the commands are now")
	}
	entry := regexp.MustCompile(`\{ name = "([a-z_]+)"([^\n]*)`)
	subs := entry.FindAllStringSubmatch(lua[start:], -1)
	if len(subs) < 10 {
		t.Fatalf("only %d Neovim commands found in commands.lua", len(subs))
	}
	for _, m := range subs {
		name, noAlias := m[1], strings.Contains(m[2], "alias = false")
		forms := []string{":Quire " + name}
		if !noAlias {
			// :QuireAsk, or with its range first, :[range]QuireAsk.
			alias := "Quire" + strings.ToUpper(name[:1]) + name[1:]
			forms = []string{":" + alias, "]" + alias}
		}
		missing(t, nvim, ntext, []string{":Quire " + name}, func(string) []string { return forms })
	}
}

// TestDocsNameEveryServerCommand: every workspace/executeCommand command
// and every custom request of the language server (server/wire) is on
// docs/lsp.md.
func TestDocsNameEveryServerCommand(t *testing.T) {
	const page = "docs/lsp.md"
	text := docPage(t, page)
	var names []string
	files, err := filepath.Glob(filepath.Join(repoRoot, "server", "wire", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("server/wire's files: %v", err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, wireNames(f)...)
	}
	if len(names) < 20 {
		t.Fatalf("only %d commands and methods found in server/wire", len(names))
	}
	missing(t, page, text, names, func(s string) []string { return []string{"`" + s + "`", "`" + s + " ", "(`" + s + "`)"} })
}

// wireNames are the command and method names a file of server/wire
// declares.
func wireNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, id := range v.Names {
				if !strings.HasPrefix(id.Name, "Command") && !strings.HasPrefix(id.Name, "Method") {
					continue
				}
				if lit, ok := v.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					names = append(names, s)
				}
			}
		}
	}
	return names
}

// TestDocsLinksResolve: every relative link in the README, the docs, the
// architecture, the changelog and the editors' pages leads to a file or
// folder that exists (its #fragment is not checked).
func TestDocsLinksResolve(t *testing.T) {
	pages := []string{"README.md", "ARCHITECTURE.md", "CHANGELOG.md", "server/PROTOCOL.md"}
	for _, dir := range []string{"docs", "editors"} {
		err := filepath.WalkDir(filepath.Join(repoRoot, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "e2e" || d.Name() == "test") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
				rel, _ := filepath.Rel(repoRoot, path)
				pages = append(pages, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fence := regexp.MustCompile("(?s)```.*?```")
	for _, page := range pages {
		text := fence.ReplaceAllString(docPage(t, page), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			path := filepath.Join(repoRoot, filepath.FromSlash(filepath.ToSlash(filepath.Dir(page))), filepath.FromSlash(target))
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, m[1])
			}
		}
	}
}

// yamlTags are the yaml names of t's fields.
func yamlTags(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// goSource is the parsed non-test Go files of the packages in dirs.
func goSource(t *testing.T, dirs ...string) []*ast.File {
	t.Helper()
	var paths []string
	for _, dir := range dirs {
		more, err := filepath.Glob(filepath.Join(repoRoot, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, more...)
	}
	var out []*ast.File
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// caseStrings are the string literals of the case clauses of function
// fn: the keys a section's reader accepts.
func caseStrings(files []*ast.File, fn string) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != fn {
				continue
			}
			ast.Inspect(fd, func(n ast.Node) bool {
				if cc, ok := n.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							out = append(out, s)
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// stringSlice is the elements of the package-level []string literal name.
func stringSlice(files []*ast.File, name string) []string {
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			v, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range v.Names {
				if id.Name != name || i >= len(v.Values) {
					continue
				}
				if cl, ok := v.Values[i].(*ast.CompositeLit); ok {
					for _, e := range cl.Elts {
						if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							out = append(out, s)
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// structTags are the yaml names of every field, nested ones included, of
// the struct type name.
func structTags(files []*ast.File, name string) []string {
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != name {
				return true
			}
			ast.Inspect(ts.Type, func(n ast.Node) bool {
				if fl, ok := n.(*ast.Field); ok && fl.Tag != nil {
					tag, _ := strconv.Unquote(fl.Tag.Value)
					if y, _, _ := strings.Cut(reflect.StructTag(tag).Get("yaml"), ","); y != "" && y != "-" {
						out = append(out, y)
					}
				}
				return true
			})
			return false
		})
	}
	return out
}
