package main

import (
	"embed"
	"io/fs"
)

// sampleFiles is the sample book "The Thirteenth Bell", written by
// `quire init --sample` and used by `make demo`.
//
//go:embed all:sample
var sampleFiles embed.FS

func sampleBook() fs.FS {
	sub, err := fs.Sub(sampleFiles, "sample")
	if err != nil {
		panic(err) // the embed directive guarantees the folder exists
	}
	return sub
}
