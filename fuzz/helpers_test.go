package fuzz

// tb is what the shared checks need of a *testing.T, *testing.F or *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}
