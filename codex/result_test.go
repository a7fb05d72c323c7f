package codex_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/quire-ink/quire/codex"
)

func TestSummaryOpens(t *testing.T) {
	tests := []struct {
		name, summary, text string
		want                bool
	}{
		{"a paragraph with links", "The market lies below Brinmouth.", "The market lies below [[Brinmouth]].\n\n## Description", true},
		{"a labelled link and emphasis", "The *old* market by the harbor.", "The _old_ market by the [[Harbor|harbor]].", true},
		{"a summary cut mid-sentence", "The market lies below…", "The market lies below Brinmouth, by the sea.", true},
		{"a summary cut mid-word", "The market lies bel…", "The market lies below Brinmouth.", true},
		{"a summary of its own", "Smuggler of the north coast.", "The market lies below Brinmouth.", false},
		{"a summary longer than the text", "The market lies below Brinmouth by the sea.", "The market lies below", false},
		{"no summary", "", "The market.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, codex.SummaryOpens(tt.summary, tt.text))
		})
	}
}
