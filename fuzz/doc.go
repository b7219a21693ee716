// Package fuzz holds the property tests and native fuzz targets of the reference implementation.
package fuzz
