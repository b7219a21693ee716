package main

import (
	"maps"
	"slices"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// observable returns the rows of spec/data/platform.jsonl that an op can
// show: those some vector is tagged with (spec.BuiltinTag), sorted, by
// language.
func observable() (map[string][]string, error) {
	builtins, err := spec.PlatformBuiltins()
	if err != nil {
		return nil, err
	}
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		return nil, err
	}
	tagged := map[string]bool{}
	for _, v := range corpus.Vectors() {
		for _, t := range v.AllTags() {
			tagged[t] = true
		}
	}
	rows := map[string][]string{}
	for key, b := range builtins {
		if tagged[spec.BuiltinTag(key)] {
			rows[b.Language] = append(rows[b.Language], key)
		}
	}
	for _, keys := range rows {
		slices.Sort(keys)
	}
	return rows, nil
}

// unmodelled returns the observable rows of the languages whose programs
// were listed (models) that no model stands for, and the languages with
// observable rows and no program at all.
func unmodelled(models []*model, rows map[string][]string) (missing []string, noProgram []string) {
	modelled := map[string]bool{}
	for _, m := range models {
		if m.Row != nil {
			modelled[*m.Row] = true
		}
	}
	listed := map[string]bool{}
	for _, m := range models {
		for _, l := range m.lang.rows {
			listed[l] = true
		}
	}
	hasProgram := map[string]bool{}
	for _, lang := range languages {
		for _, l := range lang.rows {
			hasProgram[l] = true
		}
	}
	for _, l := range slices.Sorted(maps.Keys(rows)) {
		switch {
		case !hasProgram[l]:
			noProgram = append(noProgram, l)
		case listed[l]:
			for _, key := range rows[l] {
				if !modelled[key] {
					missing = append(missing, key)
				}
			}
		}
	}
	return missing, noProgram
}
