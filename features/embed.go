package features

import (
	"embed"
	"io/fs"
)

// The scenarios, one directory per suite. README.md files are embedded too
// and ignored: only *.feature files are read.
//
//go:embed quote marker selref protocol
var files embed.FS

// FS returns the embedded feature files, one directory per suite.
func FS() fs.FS { return files }
