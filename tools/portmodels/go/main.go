// Command go is the Go port models: the reference behind a proxy that does
// one behaviour the way a Go port would, with the Go built-in called at run
// time.
//
// Usage:
//
//	models MODEL     speak protocol v1 on stdin/stdout (spec/protocol.md)
//	models --list    one JSON object per model (tools/portmodels contract)
//
// The reference runs as a child, started with the command in
// CONFORM_REFERENCE (for example "/path/to/conform serve --stdio", split at
// spaces). Every request line goes to it as written; its answer comes back as
// written, except where the model's slip applies: there the model computes
// the answer itself, from the request as encoding/json reads it. Standard
// library only; build.sh builds it.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// A model is one slip, as --list shows it. answer gets the request as a Go
// port's encoding/json reads it and the reference's answer to it; it returns
// the port's answer line, or nil to keep the reference's.
type model struct {
	Name         string   `json:"model"`
	Row          *string  `json:"row"`
	Case         string   `json:"case,omitempty"`
	Class        *string  `json:"class"`
	Ops          []string `json:"ops"`
	Requirements []string `json:"requirements"`
	Slip         string   `json:"slip"`

	answer func(ref *reference, req *request, ans *answer) []byte
}

// models are the models, identity first: it forwards everything and must
// pass the whole corpus, which shows the proxy is faithful.
var models = []*model{{Name: "identity", Ops: []string{}, Requirements: []string{},
	Slip:   "none: every request goes to the reference and its answer comes back",
	answer: func(*reference, *request, *answer) []byte { return nil }}}

// builtin registers the model of one platform row at one op: its name is
// ROW@OP.
func builtin(row, class, op string, requirements []string, slip string, answer func(*reference, *request, *answer) []byte) {
	models = append(models, &model{Name: row + "@" + op, Row: &row, Class: &class, Ops: []string{op},
		Requirements: requirements, Slip: slip, answer: answer})
}

// A request is one request line as encoding/json reads it: numbers as
// written (json.Number), a lone surrogate or a byte that is not UTF-8 as
// U+FFFD, the last of two members of one name.
type request struct {
	Op    string         `json:"op"`
	Input map[string]any `json:"input"`
}

// An answer is the reference's answer line: its id as written, and its
// output when it has one.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Output map[string]any  `json:"output"`
}

// decode reads a JSON text with numbers kept as written.
func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// line is the answer {"id": id, "output": output} as one line.
func line(id json.RawMessage, output any) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(map[string]any{"id": id, "output": output})
	if err != nil {
		fatal(err)
	}
	return append(b, '\n')
}

// The reference is the reference server as a child process, one answer
// line per request line.
type reference struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startReference(command string) (*reference, error) {
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return nil, fmt.Errorf("CONFORM_REFERENCE is empty")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("CONFORM_REFERENCE %q: %v", command, err)
	}
	return &reference{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// raw forwards a request line as written and returns the answer line as
// written.
func (r *reference) raw(req []byte) []byte {
	if !bytes.HasSuffix(req, []byte("\n")) {
		req = append(req, '\n')
	}
	if _, err := r.in.Write(req); err != nil {
		fatal(fmt.Errorf("writing to the reference: %v", err))
	}
	ans, err := r.out.ReadBytes('\n')
	if err != nil {
		fatal(fmt.Errorf("the reference closed its output: %v", err))
	}
	return ans
}

// as sends the request the model built (op with input) and returns the
// reference's answer line with id in place of its own.
func (r *reference) as(id json.RawMessage, op string, input map[string]any) []byte {
	req, err := json.Marshal(map[string]any{"id": "model", "op": op, "input": input})
	if err != nil {
		fatal(err)
	}
	var ans map[string]json.RawMessage
	if err := json.Unmarshal(r.raw(req), &ans); err != nil {
		fatal(fmt.Errorf("the reference's answer: %v", err))
	}
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	ans["id"] = id
	b, err := json.Marshal(ans)
	if err != nil {
		fatal(err)
	}
	return append(b, '\n')
}

// with returns input with the member key set to v, input itself unchanged.
func with(input map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(input)+1)
	for k, x := range input {
		out[k] = x
	}
	out[key] = v
	return out
}

// serve speaks the protocol for m until its input ends.
func serve(m *model) error {
	ref, err := startReference(os.Getenv("CONFORM_REFERENCE"))
	if err != nil {
		return err
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	ops := map[string]bool{}
	for _, op := range m.Ops {
		ops[op] = true
	}
	for {
		req, readErr := in.ReadBytes('\n')
		if len(bytes.Trim(req, " \t\r\n")) > 0 {
			ans := ref.raw(req)
			var r request
			var a answer
			if decode(req, &r) == nil && ops[r.Op] && r.Input != nil && decode(ans, &a) == nil && a.Output != nil {
				if mine := m.answer(ref, &r, &a); mine != nil {
					ans = mine
				}
			}
			out.Write(ans)
			if err := out.Flush(); err != nil {
				return err
			}
		} // else PROTO-FRAME-008: no request, no answer (the reference gives none either)
		if readErr != nil {
			break
		}
	}
	// end of input: the reference ends too, before this process does, so
	// that nothing of it holds the runner's pipes open
	ref.in.Close()
	return ref.cmd.Wait()
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--list" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		for _, m := range models {
			if err := enc.Encode(m); err != nil {
				fatal(err)
			}
		}
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: models MODEL | models --list (the Go port models; tools/portmodels runs them)")
		os.Exit(2)
	}
	for _, m := range models {
		if m.Name != os.Args[1] {
			continue
		}
		if os.Getenv("CONFORM_REFERENCE") == "" {
			fmt.Fprintln(os.Stderr, `models: CONFORM_REFERENCE is not set (the reference's command, e.g. "conform serve --stdio")`)
			os.Exit(2)
		}
		if err := serve(m); err != nil {
			fatal(err)
		}
		return
	}
	fmt.Fprintf(os.Stderr, "models: no model %q (models --list names them)\n", os.Args[1])
	os.Exit(2)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "models:", err)
	os.Exit(1)
}
