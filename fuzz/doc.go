// Package fuzz holds the property tests (pgregory.net/rapid) and the native
// fuzz targets (go test -fuzz) over the reference implementation. Every fuzz
// target is seeded from the vectors of its op and fails when none load.
// Files are named after the area they exercise.
package fuzz
