package provider

// loopMessages is a short conversation to send (the tool loop's tests
// have the same one).
func loopMessages() []Message {
	return []Message{
		{Role: RoleSystem, Content: "You are the continuity editor."},
		{Role: RoleUser, Content: "Is Mara older than Ilse?"},
	}
}
