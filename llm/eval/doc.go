// Package eval is the harness behind `quire eval`: scenarios of scripted
// model replies (happy paths, malformed tool calls, the quirks of smaller
// servers, denied and oversized calls) run through a real advisor turn on
// a small built-in book, offline against the scripted model of
// llm/eval/evalserver or live against a configured provider, with pass
// rates and latencies per scenario.
//
// Unlike the other packages under llm it is not book-blind: it drives the
// advisor (llm.Ask) end to end, so it sits above llm and nothing in llm
// imports it.
package eval
