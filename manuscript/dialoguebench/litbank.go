package dialoguebench

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
)

// LitBank is the data litbank-quotes-import writes: the excerpts of
// LitBank's 100 novels with their quotations.
type LitBank struct {
	Excerpts []Book `json:"excerpts"`
}

// LoadLitBank reads the data litbank-quotes-import wrote.
func LoadLitBank(path string) ([]Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the dialogue benchmark's data: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var lb LitBank
	if err := json.NewDecoder(zr).Decode(&lb); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	for i := range lb.Excerpts {
		lb.Excerpts[i].SplitAtTags = true
	}
	return lb.Excerpts, nil
}
