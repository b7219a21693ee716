package features

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

var calledWith = regexp.MustCompile(`^` + opName + ` is called with(?: (\{.*\})|:)$`)

// TestScenarioTwinsShareDivergences checks that a scenario row that calls
// an op with the very input of a vector (its twin) is tagged
// @divergence:SYSTEM for every system the vector records a divergence of,
// so that a profile skips both or neither: the two drifted apart once
// (quote/anchor.feature's half emoji, recorded for t3code on its vector
// only).
func TestScenarioTwinsShareDivergences(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	twins, checked := 0, 0
	err = fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return err
		}
		data, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		ids := (&messages.Incrementing{}).NewId
		doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), ids)
		if err != nil {
			return err
		}
		for _, pk := range gherkin.Pickles(*doc, p, ids) {
			var tags []string
			for _, tg := range pk.Tags {
				tags = append(tags, tg.Name)
			}
			for _, st := range pk.Steps {
				m := calledWith.FindStringSubmatch(st.Text)
				if m == nil {
					continue
				}
				input := m[2]
				if input == "" && st.Argument != nil && st.Argument.DocString != nil {
					input = st.Argument.DocString.Content
				}
				if !json.Valid([]byte(input)) {
					continue
				}
				checked++
				for _, v := range corpus.Vectors() {
					if v.Op != m[1] {
						continue
					}
					if cmp, _, err := runner.Compare(v.Input, json.RawMessage(input)); err != nil || cmp != runner.Match {
						continue
					}
					twins++
					for _, dv := range v.Divergences {
						if !slices.Contains(tags, "@divergence:"+dv.System) {
							t.Errorf("%s (%s): calls %s with the input of %s, which records a divergence of %s: tag the row @divergence:%s", p, pk.Name, v.Op, v.ID, dv.System, dv.System)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 || twins == 0 {
		t.Fatalf("%d calls read, %d twins found: the scenarios' calls are no longer recognised", checked, twins)
	}
}
