package cli

import (
	"fmt"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/runner"
)

const doctorHead = `Usage: conform doctor [flags]

Checks how an implementation speaks the protocol, without judging its answers:
the hello handshake, the answer to an unknown op, the shape of every answer to
the selected vectors (schemas/protocol.schema.json) and of every output
(schemas/ops/<op>.json), and the time a request takes. Exit code 0 when every
check passed, 1 otherwise, 2 when the implementation cannot be started.
`

func (e *env) doctor(args []string) int {
	fls := e.newFlags("doctor", doctorHead)
	var impl implFlags
	var sel selectFlags
	var pings int
	impl.register(fls, runner.DefaultRestarts)
	sel.register(fls)
	fls.IntVar(&pings, "pings", 200, "hello round trips to measure the per-request overhead")
	if done, code := e.parse(fls, args, 0); done {
		return code
	}
	if err := impl.check(); err != nil {
		return e.usagef("%v", err)
	}
	_, vs, err := selection(&sel)
	if err != nil {
		return e.usagef("%v", err)
	}
	set, err := schemaset.Load()
	if err != nil {
		return e.usagef("%v", err)
	}
	ctx, stop := stoppable()
	defer stop()
	im, hello, transport, ok := e.connect(ctx, &impl)
	if !ok {
		return ExitUsage
	}
	defer im.Close()
	fmt.Fprintf(e.stdout, "transport: %s\n", safetext.Text(transport))
	passed, failed := runner.Doctor(ctx, im, hello, vs, runner.DoctorOptions{Schemas: set, Timeout: impl.timeout, Pings: pings}, func(l runner.DoctorLine) {
		if l.Mark == "" {
			fmt.Fprintln(e.stdout, l.Text)
		} else {
			fmt.Fprintf(e.stdout, "%-4s %s\n", l.Mark, l.Text) // "ok", "note", "FAIL": the texts in one column
		}
	})
	fmt.Fprintf(e.stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return ExitFailed
	}
	return ExitOK
}
