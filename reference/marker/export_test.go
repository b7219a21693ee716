package marker

import "unicode"

// UseSnapSet makes the package snap by set instead of the pinned Unicode
// 15.0.0 set until the returned function is called: the platform-table
// fake of unicode_fake_test.go.
func UseSnapSet(set *unicode.RangeTable) (restore func()) {
	old := snapSet
	snapSet = set
	return func() { snapSet = old }
}
