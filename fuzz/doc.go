// Package fuzz holds the property tests and native fuzz targets of the
// reference implementation, and the differential fuzzing engine that checks
// any implementation against the reference.
package fuzz
