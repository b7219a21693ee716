package cli

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
)

// MemoryLimit is the soft limit the conform command sets on its heap when
// GOMEMLIMIT does not set one: the collector works harder as the heap
// nears it, so that what a run holds (its answers in flight, within the
// runner's budget, and its results) does not double before a collection.
const MemoryLimit = 384 << 20

// GCPercent is the garbage collection target the conform command sets when
// GOGC does not set one. Under the soft MemoryLimit a heap of hundreds of
// megabytes is collected as often as before; a small one (a server's or a
// fuzzer's, a few megabytes live) is collected a quarter as often as at
// Go's default of 100, which a fuzz run over 'conform serve --stdio' feels
// (docs/fuzzing.md, Throughput).
const GCPercent = 400

// RouteLibraryLog sends what a library prints through the standard logger
// to w as conform's own warning lines, each rendered with safetext.Text.
// net/http's transport prints there: "Unsolicited response received on
// idle HTTP channel ..." when a server sends more than its Content-Length.
func RouteLibraryLog(w io.Writer) {
	log.SetFlags(0)
	log.SetPrefix("")
	log.SetOutput(libraryLog{w})
}

// libraryLog writes each line of a library's log message as a warning.
type libraryLog struct{ w io.Writer }

func (l libraryLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if _, err := fmt.Fprintf(l.w, "conform: warning: %s\n", safetext.Text(line)); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
