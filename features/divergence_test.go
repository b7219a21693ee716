package features

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/vectors"
)

var divergenceTag = regexp.MustCompile(`@divergence:(\S*)`)

// TestDivergenceTags checks the tags that mark the scenarios and example rows
// on which a real system answers differently: each names a known system and
// stands on a tag line of a Scenario or an Examples block, never on a
// feature or a rule, so that only the diverging rows carry it.
func TestDivergenceTags(t *testing.T) {
	n := 0
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return err
		}
		data, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		lines := strings.Split(string(data), "\n")
		for i, line := range lines {
			for _, m := range divergenceTag.FindAllStringSubmatch(line, -1) {
				n++
				if !slices.Contains(vectors.Systems, m[1]) {
					t.Errorf("%s:%d: @divergence:%s names no known system (known: %s)", p, i+1, m[1], strings.Join(vectors.Systems, ", "))
				}
				if !strings.HasPrefix(strings.TrimSpace(line), "@") {
					t.Errorf("%s:%d: @divergence:%s is not on a tag line", p, i+1, m[1])
					continue
				}
				next := ""
				for _, l := range lines[i+1:] {
					if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "@") {
						next = l
						break
					}
				}
				if !strings.HasPrefix(next, "Scenario") && !strings.HasPrefix(next, "Examples") {
					t.Errorf("%s:%d: @divergence:%s tags %q: tag a Scenario or an Examples block", p, i+1, m[1], next)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no scenario carries a divergence tag")
	}
}
