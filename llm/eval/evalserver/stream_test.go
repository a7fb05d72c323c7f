package evalserver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitWordsJoinsBack(t *testing.T) {
	for _, s := range []string{"", "one", "one two three four five", "  lead  and trail  ", "a\nb c d e"} {
		assert.Equal(t, s, strings.Join(splitWords(s, 3), ""))
	}
}
