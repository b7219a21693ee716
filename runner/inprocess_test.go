package runner

import "github.com/conform-suite/conform/reference"

// InProcess is the reference in process, as the command line wires it in;
// the runner's tests run against it.
type InProcess = reference.InProcess
