// Package fuzz holds the property tests and native fuzz targets over the reference implementation.
package fuzz
