package dialoguebench

import (
	"fmt"

	"github.com/quire-ink/quire/manuscript/namebench"
)

// LitBank is the data litbank-quotes-import writes: the excerpts of
// LitBank's 100 novels with their quotations.
type LitBank struct {
	Excerpts []Book `json:"excerpts"`
}

// LoadLitBank reads the data litbank-quotes-import wrote.
func LoadLitBank(path string) ([]Book, error) {
	var lb LitBank
	if err := namebench.ReadGzipJSON(path, &lb); err != nil {
		return nil, fmt.Errorf("the dialogue benchmark's data: %w", err)
	}
	for i := range lb.Excerpts {
		lb.Excerpts[i].SplitAtTags = true
	}
	return lb.Excerpts, nil
}
