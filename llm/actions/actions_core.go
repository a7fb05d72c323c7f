package actions

// Core returns the advisor actions shipped in the binary, sorted
// by name. They are locked: Merge rejects a user action with one
// of their ids, so customizing one means copying it under a new id. The
// slice and its contents are copies the caller may change.
func Core() []Action {
	out := make([]Action, len(coreActions))
	for i, a := range coreActions {
		a = a.clone()
		a.Core = true
		a.Source = SourceCore
		out[i] = a
	}
	return out
}

// coreActions are quire's own asks, sorted by name. Each prompt tells the
// persona how to read its target with the tools its scope allows: the
// first-time reader has only get_manuscript_context.
var coreActions = []Action{
	{
		ID:      "book-timeline",
		Name:    "Book timeline",
		Scope:   ScopeProject,
		Persona: "continuity-editor",
		Usage:   "After a draft or a structural revision, to see the whole book's chronology in one place and where it breaks.",
		Goals: []string{
			"A dated or ordered timeline of the book's main events, each tied to its chapter.",
			"Every place where the order of events, elapsed time or someone's knowledge cannot all be true.",
		},
		Guardrails: []string{
			"Build the timeline only from chapters you have read and event entries you have looked up.",
			"Mark inferred dates and durations as inferred, and say what they rest on.",
			"Propose codex changes for the writer to review; never treat the codex as already changed.",
		},
		Prompt: "Build a timeline of the whole book.\n\n" +
			"1. Read the chapters in order with get_manuscript_context, using refs with chapter numbers (\"1\", \"2\", …, " +
			"up to eight at once) until a number is not found.\n" +
			"2. List the event entries with list_codex_entries (entryType event) and read the ones the chapters touch.\n" +
			"3. Write the timeline: one line per event with when it happens (date, day or relative time), where, who is present, and the chapter.\n" +
			"4. After the timeline, list the conflicts: events out of order, impossible travel or healing times, seasons or moons that do not match, " +
			"and characters who know something before they could have learned it. For each, quote both sides briefly and say which you think is right.\n\n" +
			"If the book is too long to read in full, say which chapters you covered.",
	},
	{
		ID:      "continuity-check",
		Name:    "Continuity check",
		Scope:   ScopeFile,
		Persona: "continuity-editor",
		Usage:   "After drafting or revising a chapter, to catch facts that disagree with the codex or with earlier chapters.",
		Goals: []string{
			"Every fact in the chapter that contradicts the codex or an earlier chapter, with both sides and where they come from.",
			"Facts the chapter establishes that the codex does not record yet.",
		},
		Guardrails: []string{
			"Report a contradiction only after reading the passage and looking up the entry; otherwise ask it as a question.",
			"Quote only the few words needed to show each side.",
			"Propose codex changes for the writer to review; leave the prose alone.",
		},
		Prompt: "Check this chapter for continuity.\n\n" +
			"1. Read the chapter with get_manuscript_context, ref \"current\" (or the chapter's path given above).\n" +
			"2. For each character, place, organization, item and named concept it mentions, look up the entry with the matching " +
			"get_*_context tool (search_codex when you are unsure of the name). These lookups answer as of this chapter: " +
			"the canon a progression changes (a death, a new title, a move) is the canon that holds here.\n" +
			"3. Compare what the chapter says with the codex: appearance, ages, relationships, places, objects, rules, names and spellings. " +
			"Where the chapter depends on earlier events, read the chapters it depends on.\n" +
			"4. The turn context lists what quire's own continuity checks found in this chapter. Confirm or dismiss each finding " +
			"with both sides read, then add what those checks cannot see; do not just repeat them.\n\n" +
			"Answer with the contradictions first, ranked by how much a reader would notice, then the facts the codex does not record yet. " +
			"If you find nothing, say what you checked.",
	},
	{
		ID:      "first-reader-reaction",
		Name:    "First-reader reaction",
		Scope:   ScopeSelection,
		Persona: "first-time-reader",
		Usage:   "On an opening, a reveal or any passage where you want to know how it lands on someone who knows nothing about the book.",
		Goals: []string{
			"Your reactions in the order you had them while reading.",
			"Where you were curious, confused, engaged or drifting, and what caused it.",
		},
		Guardrails: []string{
			"React only to the selected text; you know nothing about the book beyond it.",
			"Report your experience rather than fixes.",
		},
		Prompt: "Read the selection with get_manuscript_context, ref \"selection\", as a reader who has just picked up the book.\n\n" +
			"Then tell me, in the first person, what it was like to read: what you understood, what you wondered about, " +
			"what you could not follow and where, what you felt about the people in it, and the moment, if any, you would have put the book down. " +
			"Quote a few words to show which part each reaction belongs to. Finish with the questions you would most want the next pages to answer.",
	},
	{
		ID:      "line-edit",
		Name:    "Line edit",
		Scope:   ScopeSelection,
		Persona: "writing-coach",
		Usage:   "On a paragraph or a page whose sentences feel heavy, flat or unclear.",
		Goals: []string{
			"The few sentence-level changes that would improve the passage most: rhythm, clarity, repetition, filtering, weak verbs.",
			"The pattern behind each change, named, so the writer can spot it elsewhere.",
		},
		Guardrails: []string{
			"Keep the writer's voice; do not rewrite the passage wholesale.",
			"Show each change as the original words and a suggested version, with one line on why.",
			"Respect the book's style rules and deliberate choices.",
		},
		Prompt: "Line-edit the selection.\n\n" +
			"1. Read it with get_manuscript_context, ref \"selection\".\n" +
			"2. Check the book's style rules with get_style_context or search_codex (entryType style), if it has any.\n" +
			"3. Pick at most eight changes, the ones that matter most. For each, quote the original, give a suggested version, " +
			"and say in one line what it fixes.\n\n" +
			"End with the one habit in this passage most worth working on, and what the passage already does well.",
	},
	{
		ID:      "motivation-check",
		Name:    "Motivation check",
		Scope:   ScopeSelection,
		Persona: "character-psychologist",
		Usage:   "On a scene where a character makes a choice, turns on someone or changes their mind, to see whether it is earned.",
		Goals: []string{
			"Whether each important choice in the passage follows from what the character wants, fears and knows at that moment.",
			"Where the text shows the motivation, and where it only asserts it or needs it for the plot.",
		},
		Guardrails: []string{
			"Ground each reading in the character's words and actions and in their codex entry; mark interpretation as yours.",
			"Suggest what a character might want or do in a sentence or two; leave the prose to the writer.",
		},
		Prompt: "Check the motivations in the selection.\n\n" +
			"1. Read it with get_manuscript_context, ref \"selection\".\n" +
			"2. Look up each character who makes a choice in it with get_character_context.\n" +
			"3. If a choice depends on something that happened earlier, read the chapter where it happened.\n\n" +
			"For each choice, say what the character wants and fears here, whether the choice follows from that, " +
			"and what a reader needs to see for it to feel earned. Note any place where the passage and the codex disagree about the character.",
	},
	{
		ID:      "stakes-map",
		Name:    "Stakes map",
		Scope:   ScopeFile,
		Persona: "developmental-editor",
		Usage:   "When a chapter feels slack, or before revising its structure, to see what is at stake and whether the reader can feel it.",
		Goals: []string{
			"For each scene of the chapter: who wants what, what stands in the way, and what they stand to lose.",
			"Whether the stakes rise, hold or fall across the chapter, and whether the chapter changes something that matters.",
		},
		Guardrails: []string{
			"Tie every point to a scene you have read, and name it.",
			"Offer options and their trade-offs rather than a rewrite.",
		},
		Prompt: "Map the stakes of this chapter.\n\n" +
			"1. Read the chapter with get_manuscript_context, ref \"current\" (or the chapter's path given above).\n" +
			"2. Divide it into scenes, and for each give: the point-of-view character, their goal, the obstacle, what they risk, " +
			"and what has changed by the end of the scene.\n" +
			"3. Look up characters or events in the codex when the stakes depend on them.\n\n" +
			"Then say how the stakes move across the chapter, where the reader learns them too late to care, " +
			"and which scene does the least work. Say plainly what already works.",
	},
	{
		ID:      "timeline-check",
		Name:    "Timeline check",
		Scope:   ScopeFile,
		Persona: "continuity-editor",
		Usage:   "On a chapter that moves through time, jumps ahead or follows several characters, to check it against the book's chronology.",
		Goals: []string{
			"When the chapter's events happen, in order, with the time that passes between them.",
			"Every conflict with earlier chapters or with event entries: order, elapsed time, travel, seasons, who could know what.",
		},
		Guardrails: []string{
			"Mark times you infer as inferred, and say what they rest on.",
			"Report a conflict only with both sides read; otherwise ask it as a question.",
		},
		Prompt: "Check the timeline of this chapter.\n\n" +
			"1. Read the chapter with get_manuscript_context, ref \"current\" (or the chapter's path given above).\n" +
			"2. Read the chapters just before it, and any earlier chapter it refers back to.\n" +
			"3. Look up the events it touches with get_event_context, or list_codex_entries with entryType event.\n\n" +
			"List the chapter's events in order with when each happens and how much time passes. " +
			"Then list the conflicts, each with both sides quoted briefly and where they come from, and say which side you think is right.",
	},
	{
		ID:      "world-rules-check",
		Name:    "World rules check",
		Scope:   ScopeSelection,
		Persona: "worldbuilding-auditor",
		Usage:   "On a passage where magic, technology, law, trade or custom does something, to check it keeps the world's rules.",
		Goals: []string{
			"Every rule of the world the passage uses or bends, and whether it holds against the codex.",
			"Consequences the passage implies that the rest of the world would feel.",
		},
		Guardrails: []string{
			"Base each point on the prose and the codex, and say which; look entries up instead of recalling them.",
			"Where the book has not decided something, say it is undecided and offer two or three ways to decide it.",
		},
		Prompt: "Check the selection against the rules of the world.\n\n" +
			"1. Read it with get_manuscript_context, ref \"selection\".\n" +
			"2. Find the concepts, organizations, items and locations it relies on with search_codex, and read them with the matching get_*_context tool.\n\n" +
			"For each rule the passage uses, say whether it holds, bends or breaks, and quote the few words that show it. " +
			"Then name the consequences a reader would expect to see elsewhere, and the questions the world still has to answer.",
	},
}
