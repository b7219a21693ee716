package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/conform-suite/conform/features"
	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

const listHead = `Usage: conform list [flags]

Lists the selected vectors, one per line, in three tab-separated columns:
the vector id, the requirements it exercises (comma separated) and its
description. --ids prints the ids alone. The selection flags are those of
'conform run'.

With --divergent, lists only the vectors whose expectation differs under
--profile NAME (those recording an answer of that system): id, the recorded
answer, and the reason. Under the default profile (spec) none differs.
`

func (e *env) list(args []string) int {
	fs := e.newFlags("list", listHead)
	var sel selectFlags
	var idsOnly, divergent bool
	sel.register(fs)
	fs.BoolVar(&idsOnly, "ids", false, "print the ids only")
	sel.profile.register(fs, true)
	fs.BoolVar(&divergent, "divergent", false, "list only the vectors whose expectation differs under --profile")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	if err := sel.profile.check(); err != nil {
		return e.usagef("--profile: %v", err)
	}
	_, vs, err := selection(&sel)
	if err != nil {
		return e.usagef("%v", err)
	}
	profile := sel.profile.name
	if divergent {
		vs = slices.DeleteFunc(vs, func(v *vectors.Vector) bool { return runner.Recorded(profile, v) == nil })
	}
	var b strings.Builder
	for _, v := range vs {
		// Each field is escaped on its own (safetext), so that a tab or an
		// invisible character of a vector or a profile file shows as an
		// escape and the tabs between fields stay the only ones.
		switch d, id := runner.Recorded(profile, v), safetext.Text(v.ID); {
		case idsOnly:
			fmt.Fprintln(&b, id)
		case divergent:
			fmt.Fprintf(&b, "%s\t%s\t%s\n", id, safetext.JSON(features.Compact(d.Answer())), safetext.Text(d.Reason))
		default:
			fmt.Fprintf(&b, "%s\t%s\t%s\n", id, safetext.Text(strings.Join(v.Requirements, ",")), safetext.Text(v.Description))
		}
	}
	fmt.Fprint(e.stdout, b.String())
	switch {
	case len(vs) > 0:
	case divergent && runner.ProfileName(profile) == runner.DefaultProfile:
		e.hintf("under the default profile no expectation differs: name a system with --profile (%s)", strings.Join(vectors.Systems, ", "))
	case divergent:
		e.hintf("no selected vector records an answer of %s", profile)
	default:
		e.hintf("no vector matches the selection")
	}
	return ExitOK
}

const explainHead = `Usage: conform explain [flags] ID

Shows one vector: its description, the text of the requirements it exercises,
its input and expected output, and the exact request line to send an
implementation by hand.
`

func (e *env) explain(args []string) int {
	fs := e.newFlags("explain", explainHead)
	dir := fs.String("vectors", "", "read vectors from `DIR` instead of the embedded corpus")
	if done, code := e.parse(fs, args, 1); done {
		return code
	}
	if fs.NArg() != 1 {
		return e.usageHint("explain takes one vector id", "'conform list' prints the ids")
	}
	id := fs.Arg(0)
	corpus, err := loadCorpus(*dir)
	if err != nil {
		return e.usagef("%v", err)
	}
	v := corpus.Lookup(id)
	if v == nil {
		e.errorf("no vector has the id %q", id)
		var near []string
		for _, c := range corpus.Vectors() {
			if m, _ := path.Match(id, c.ID); m || strings.Contains(c.ID, id) {
				near = append(near, c.ID)
			}
		}
		named := slices.ContainsFunc(corpus.Vectors(), func(c *vectors.Vector) bool { return slices.Contains(c.Requirements, id) })
		switch {
		case len(near) > 0 && len(near) <= 10:
			e.hintf("did you mean %s?", strings.Join(near, ", "))
		case named:
			e.hintf("%s is a requirement: 'conform list --req %s' lists its vectors, 'conform coverage -v' its scenarios too", id, id)
		case len(near) > 10:
			e.hintf("'conform list --id '*%s*'' lists the %d vectors whose ids contain it", id, len(near))
		default:
			e.hintf("'conform list' prints the ids")
		}
		return ExitUsage
	}
	s := embeddedSpec()
	var b strings.Builder
	fmt.Fprintf(&b, "vector:      %s\n", safetext.Text(v.ID))
	file := "vectors/" + v.File // the embedded corpus: its path in the source tree
	if *dir != "" {
		file = filepath.Join(*dir, filepath.FromSlash(v.File))
	}
	fmt.Fprintf(&b, "file:        %s\n", safetext.Text(file))
	fmt.Fprintf(&b, "op:          %s\n", safetext.Text(v.Op))
	fmt.Fprintf(&b, "description: %s\n", safetext.Text(v.Description))
	if tags := v.AllTags(); len(tags) > 0 {
		fmt.Fprintf(&b, "tags:        %s\n", safetext.Text(strings.Join(tags, ", ")))
	}
	b.WriteString("requirements:\n")
	for _, rid := range v.Requirements {
		if r, ok := s.Lookup(rid); ok {
			fmt.Fprintf(&b, "  %s (%s, spec/%s:%d)\n    %s\n", rid, r.Level, r.File, r.Line, r.Text)
		} else {
			fmt.Fprintf(&b, "  %s (not in the specification)\n", safetext.Text(rid))
		}
	}
	fmt.Fprintf(&b, "input:\n%s\n", indentJSON(v.Input))
	switch {
	case v.Expect.Error != nil:
		fmt.Fprintf(&b, "expected answer: a protocol error of kind %s (the input is malformed on purpose; the message is never compared)\n", safetext.Text(v.Expect.Error.Kind))
	case v.Expect.Output != nil:
		fmt.Fprintf(&b, "expected output:\n%s\n", indentJSON(v.Expect.Output))
	default:
		fmt.Fprintf(&b, "expected output, by the implementation's choice %s:\n", safetext.Text(v.Expect.Choice))
		for _, value := range slices.Sorted(maps.Keys(v.Expect.Outputs)) {
			fmt.Fprintf(&b, "  %s = %s:\n%s\n", safetext.Text(v.Expect.Choice), safetext.Text(value), indentJSON(v.Expect.Outputs[value]))
		}
	}
	for _, d := range v.Divergences {
		fmt.Fprintf(&b, "recorded answer of %s (graded under --profile %s): %s\n%s\n", d.System, d.System, safetext.Text(d.Reason), indentJSON(d.Answer()))
	}
	line, err := runner.RequestLine(protocol.Request{ID: protocol.IntID(1), Op: v.Op, Input: v.Input})
	if err != nil {
		return e.usagef("%s: %v", v.ID, err)
	}
	// The line stays JSON of the same value with its invisible characters
	// written as escapes: pasted, it sends what the vector holds.
	fmt.Fprintf(&b, "request line (send it to the implementation on one line of stdin):\n%s\n", safetext.JSON(strings.TrimSuffix(line, "\n")))
	fmt.Fprint(e.stdout, b.String())
	return ExitOK
}

// indentJSON indents JSON for a person, its invisible and control
// characters written as escapes (the same JSON value).
func indentJSON(raw json.RawMessage) string { return safetext.IndentJSON(raw, "  ", "  ") }
