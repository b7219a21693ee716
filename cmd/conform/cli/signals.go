package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end a command as Ctrl-C does: what was judged is reported,
// every report written, the implementation's processes ended, the fuzzing
// findings kept. SIGTERM is what timeout(1), container runtimes and a CI
// system's cancel send; SIGHUP, a terminal that closed.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stoppable returns a context that the first of stopSignals cancels; its
// stop function restores their default handling.
func stoppable() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), stopSignals...)
}
