package main

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// A workflowCommand is one line GitHub's runner reads as a workflow command.
type workflowCommand struct {
	name, props, data string
	line              string
}

// runnerCommands are the commands GitHub's runner knows; a line naming any
// other is plain output.
var runnerCommands = []string{"add-mask", "add-matcher", "add-path", "debug", "echo", "endgroup", "error", "group",
	"internal-set-repo-path", "notice", "remove-matcher", "save-state", "set-env", "set-output", "stop-commands", "warning"}

// workflowCommands returns the commands GitHub's runner processes in a job
// log, as it reads them: line by line, first as "::name props::data" after
// leading white space, else as "##[name props]data" anywhere in the line;
// after "::stop-commands::TOKEN" nothing but "::TOKEN::" (in either form, in
// any case) until it comes. A resuming line is returned too.
func workflowCommands(log string) []workflowCommand {
	var out []workflowCommand
	token := ""
	for _, line := range strings.Split(log, "\n") {
		line = strings.TrimSuffix(line, "\r")
		c, ok := parseWorkflowCommand(line, token)
		switch {
		case !ok:
		case token != "":
			if strings.EqualFold(c.name, token) {
				token = ""
				out = append(out, c)
			}
		default:
			if c.name == "stop-commands" && c.data != "" {
				token = c.data
			}
			out = append(out, c)
		}
	}
	return out
}

func parseWorkflowCommand(line, token string) (workflowCommand, bool) {
	known := func(name string) bool {
		return slices.Contains(runnerCommands, name) || token != "" && strings.EqualFold(name, token)
	}
	if t := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(t, "::") {
		if end := strings.Index(t[2:], "::"); end >= 0 {
			name, props, _ := strings.Cut(t[2:2+end], " ")
			if known(name) {
				return workflowCommand{name: name, props: props, data: t[2+end+2:], line: line}, true
			}
		}
	}
	if i := strings.Index(line, "##["); i >= 0 {
		rest := line[i+3:]
		if end := strings.IndexByte(rest, ']'); end >= 0 {
			name, props, _ := strings.Cut(rest[:end], " ")
			if known(name) {
				return workflowCommand{name: name, props: props, data: rest[end+1:], line: line}, true
			}
		}
	}
	return workflowCommand{}, false
}

// The model of the runner's reading, on lines whose reading is known.
func TestWorkflowCommandsModel(t *testing.T) {
	log := strings.Join([]string{
		"plain text",
		"text ##[add-mask]secret",     // v1 anywhere in a line
		"  ::error title=t::message",  // v2 after white space
		"::unknown::x ##[warning]w",   // an unknown v2 name: read as v1
		"x ::error::not at the start", // v2 only at the start
		"::stop-commands::tok",        // stopped
		"::error::ignored",            //
		"##[add-mask]ignored",         //
		"::TOK::",                     // resumed, in any case
		"::notice::after",             //
	}, "\n")
	var got []string
	for _, c := range workflowCommands(log) {
		got = append(got, c.name+":"+c.data)
	}
	want := []string{"add-mask:secret", "error:message", "warning:w", "stop-commands:tok", "TOK:", "notice:after"}
	if !slices.Equal(got, want) {
		t.Errorf("workflowCommands = %q, want %q", got, want)
	}
}
