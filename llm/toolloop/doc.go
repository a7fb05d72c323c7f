// Package toolloop runs the bounded conversation between a model and the
// tools it may call: the Registry of tools a turn offers, the argument
// checks against each tool's JSON schema, the Dispatcher that turns every
// call (unknown, malformed, oversized, failed) into an Envelope the model
// can read, and the loop itself with its limits on rounds, calls per
// round and answer size, its tool-use modes and its trace.
//
// It is book-blind: tools arrive as functions with a schema, already
// bound to whatever they read, so the loop imports only the provider and
// never codex, manuscript or the advisor.
package toolloop
