// Package schemas embeds the JSON Schemas (draft 2020-12) that describe
// conform's files and messages: vector files, protocol messages, the input
// and output of every op (ops/<op>.json, with $defs "input" and "output"),
// and reports.
package schemas

import (
	"embed"
	"io/fs"
)

//go:embed *.json ops
var files embed.FS

// FS returns the embedded schema files.
func FS() fs.FS { return files }
