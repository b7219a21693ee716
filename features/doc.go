// Package features runs conform's Gherkin scenarios against any
// implementation of protocol v1.
//
// The scenarios under quote/, marker/, selref/ and protocol/ tell the
// behaviour of each suite as stories and are tagged with the requirement
// identifiers of spec/ they exercise (@QUOTE-LINK-004). Their step
// definitions reach the implementation only through [runner.Implementation],
// so the same scenarios run against the in-process reference, a child process
// over stdio or an HTTP service.
//
// [Run] runs them with godog, in strict mode: an undefined or ambiguous
// step fails the run. Its pretty and progress formats end with conform's
// summary (summary.go gathers it, report.ScenarioSummary writes it), and
// its JUnit report is conform's (junit.go, on report's JUnit model), whose
// totals count skipped scenarios as skipped. A scenario that calls an op of
// a suite the implementation does not list in its hello answer is skipped,
// as the runner reports such vectors as unsupported rather than failed.
//
// The scenarios under runner/ ([RunnerFS]) are about conform's own runner;
// their step definitions start fake implementations and live in the
// package's tests.
//
// # Values in steps
//
// A quoted step argument ("…") is the content of a JSON string: \" is a
// quote, \uE200 is U+E200. A doc string whose media type is json ("""json)
// is a JSON value, copied byte for byte into the request, so escapes such as
// a lone \ud83d reach the implementation unchanged. Any other doc string is
// literal text in which \u{HEX} stands for the code point HEX, so invisible
// characters stay visible in the feature file. A table cell is JSON when it
// parses as JSON and literal text (with \u{HEX}) otherwise.
//
// Output paths name a member of the last output: "selector.start",
// "citations[1].locator"; "" is the whole output.
//
// See docs/features.md for the step vocabulary.
package features
