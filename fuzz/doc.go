// Package fuzz holds the property tests (rapid) and native fuzz targets over the reference implementation.
package fuzz
