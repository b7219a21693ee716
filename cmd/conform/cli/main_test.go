package cli

import (
	"os"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
)

// mainEnv makes the test binary behave as the conform command, so that
// tests can run 'conform serve --stdio' as a child process.
const mainEnv = "CONFORM_TEST_MAIN"

func TestMain(m *testing.M) {
	fakeimpl.MaybeRun()
	if os.Getenv(codelessEnv) != "" {
		os.Exit(serveCodeless())
	}
	if os.Getenv(partialEnv) != "" {
		os.Exit(servePartial())
	}
	if os.Getenv(hostileEnv) != "" {
		os.Exit(serveHostile())
	}
	if os.Getenv(mainEnv) != "" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
