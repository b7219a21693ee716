package runner

import (
	"context"
	"os"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/protocol"
)

// serveEnv makes the test binary serve the reference on stdio, as
// 'conform serve --stdio' does.
const serveEnv = "CONFORM_TEST_SERVE"

// TestMain lets the test binary play a (faulty) implementation: the
// transport tests start it again with fakeimpl.Env set.
func TestMain(m *testing.M) {
	fakeimpl.MaybeRun()
	if os.Getenv(serveEnv) == "stdio" {
		if err := protocol.ServeStdio(context.Background(), InProcess{}, os.Stdin, os.Stdout, 0); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
