// Package settings reads a book's settings files, quire.yaml in the book
// and the writer's own config.yaml, once each, and hands each top-level
// section to the package that owns it: the settings are parsed here and
// understood there.
package settings
