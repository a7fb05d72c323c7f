package manuscript

import "github.com/quire-ink/quire/codex"

// DefaultGlobs find chapters when quire.yaml names none: every Markdown
// file under manuscript/, at any depth (parts may be folders).
var DefaultGlobs = []string{"manuscript/**/*.md", "manuscript/**/*.markdown"}

// glob is a chapter glob; the matching is the codex's.
type glob = codex.Glob

func compileGlob(pattern string) (glob, error) { return codex.CompileGlob(pattern) }
