package manuscript

// TurnContext is the metadata of the writer's place that goes into the
// advisor's first message of a turn: what the model may know before it
// reads anything, and nothing more. It carries no prose; the model reads
// text only through get_manuscript_context.
type TurnContext struct {
	// HasSelection says the writer selected text for this turn.
	HasSelection bool   `json:"hasSelection"`
	Path         string `json:"path,omitempty"`
	Title        string `json:"title,omitempty"`
	// With a selection: the words of the whole document and of the
	// selection, and the selection's hash.
	SourceWords    int    `json:"sourceWords,omitempty"`
	SelectionWords int    `json:"selectionWords,omitempty"`
	SelectionHash  string `json:"selectionHash,omitempty"`
	// Without one: the words of the active document.
	DocumentWords int `json:"documentWords,omitempty"`
}

// TurnContext describes place for a turn. It reports false when there is neither a
// selection nor a readable active document, so no context message is
// needed.
func (s *Snapshot) TurnContext(place Place) (TurnContext, bool) {
	if sel := place.Selection; sel != nil {
		return TurnContext{
			HasSelection:   true,
			Path:           sel.Path,
			Title:          sel.Title,
			SourceWords:    sel.SourceWords,
			SelectionWords: sel.Words,
			SelectionHash:  sel.Hash,
		}, true
	}
	if place.Current == "" {
		return TurnContext{}, false
	}
	u, err := s.Document(place.Current)
	if err != nil {
		return TurnContext{}, false
	}
	return TurnContext{Path: u.Path, Title: u.Title, DocumentWords: u.Words}, true
}
