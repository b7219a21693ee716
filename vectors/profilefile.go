package vectors

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
)

// A ProfileFile records what a system outside the corpus answers where it
// differs from the specification, in a file its team keeps in its own
// repository: 'conform run --profile-file FILE' grades under it as under a
// built-in profile. Records name the vectors they apply to, of the corpus
// or of the file's own vector files (inputs found by fuzzing an incumbent:
// 'conform fuzz --record-profile'); 'conform profile export NAME' writes a
// built-in profile in this same form.
type ProfileFile struct {
	Note    string            `json:"//,omitempty"`
	Profile string            `json:"profile"`
	Records []ProfileRecord   `json:"records"`
	Vectors []json.RawMessage `json:"vectors,omitempty"` // vector files, as a vector file is written
}

// A ProfileRecord is one divergence of the profile's system: the vector it
// applies to and the system's recorded answer.
type ProfileRecord struct {
	Vector string `json:"vector"`
	Record
}

var profileName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)

// CheckProfileName returns an error when name cannot name a profile of a
// profile file: lower-case letters, digits, '-' and '_', not "spec".
func CheckProfileName(name string) error {
	if !profileName.MatchString(name) || name == "spec" {
		return fmt.Errorf("profile %q: want a name of lower-case letters, digits, '-' and '_' (not spec)", name)
	}
	return nil
}

// ApplyProfile reads a profile file (named name, for messages) into c: its
// vector files join the corpus, and each record becomes the divergence of
// the profile's system on the vector it names, in place of any the corpus
// records for that system. It returns the profile's name, and every
// problem of the file at once.
func (c *Corpus) ApplyProfile(name string, data []byte) (string, error) {
	var pf ProfileFile
	if err := decodeOne(data, &pf); err != nil {
		return "", fmt.Errorf("profile file %s: %w", name, err)
	}
	if err := CheckProfileName(pf.Profile); err != nil {
		return "", fmt.Errorf("profile file %s: %w", name, err)
	}
	var errs []error
	byID := map[string]*Vector{}
	for _, v := range c.Vectors() {
		byID[v.ID] = v
	}
	for i, raw := range pf.Vectors {
		f, err := Parse(fmt.Sprintf("%s#vectors[%d]", name, i), raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, v := range f.Vectors {
			if byID[v.ID] != nil {
				errs = append(errs, fmt.Errorf("profile file %s: vector %s is already in the corpus", name, v.ID))
			}
			byID[v.ID] = v
		}
		c.Files = append(c.Files, f)
	}
	seen := map[string]bool{}
	for i, r := range pf.Records {
		v := byID[r.Vector]
		switch {
		case v == nil:
			errs = append(errs, fmt.Errorf("profile file %s: records[%d]: no vector %q in the corpus or the file", name, i, r.Vector))
			continue
		case seen[r.Vector]:
			errs = append(errs, fmt.Errorf("profile file %s: records[%d]: vector %s recorded twice", name, i, r.Vector))
		case (len(r.Output) == 0) == (r.Error == nil):
			errs = append(errs, fmt.Errorf("profile file %s: records[%d] (%s): give exactly one of output and error", name, i, r.Vector))
		case strings.TrimSpace(r.Reason) == "":
			errs = append(errs, fmt.Errorf("profile file %s: records[%d] (%s): missing reason", name, i, r.Vector))
		}
		seen[r.Vector] = true
	}
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	for _, v := range byID {
		v.Divergences = slices.DeleteFunc(v.Divergences, func(d *Divergence) bool { return d.System == pf.Profile })
	}
	for _, r := range pf.Records {
		v := byID[r.Vector]
		v.Divergences = append(v.Divergences, &Divergence{System: pf.Profile, Record: r.Record})
	}
	return pf.Profile, nil
}

// ExportProfile writes the divergences the corpus records for system as a
// profile file (records only: they name the corpus's vectors).
func (c *Corpus) ExportProfile(system string) ([]byte, error) {
	pf := ProfileFile{
		Note:    "A conform profile file: 'conform run --profile-file FILE' grades under it. Written by 'conform profile export " + system + "'.",
		Profile: system, Records: []ProfileRecord{},
	}
	for _, v := range c.Vectors() {
		if d := v.Divergence(system); d != nil {
			pf.Records = append(pf.Records, ProfileRecord{Vector: v.ID, Record: d.Record})
		}
	}
	if len(pf.Records) == 0 {
		return nil, fmt.Errorf("no vector records a divergence of %q (systems: %s)", system, strings.Join(Systems, ", "))
	}
	return pf.Encode()
}

// Encode writes the profile file as JSON, indented, the answers' escapes
// kept as written.
func (pf *ProfileFile) Encode() ([]byte, error) {
	data, err := jsonv.MarshalIndent(pf, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
