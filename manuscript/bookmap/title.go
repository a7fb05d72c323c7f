package bookmap

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/quire-ink/quire/codex/settings"
)

// TitleOf is the book's title as its quire.yaml gives it (`title:`), or
// "" when it gives none; the writer's own config names no book.
func TitleOf(l *settings.Loaded) string {
	if l == nil || l.Book == nil {
		return ""
	}
	n := l.Book.Value("title")
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return ""
	}
	return strings.Join(strings.Fields(n.Value), " ")
}
