package features

import "github.com/cucumber/godog"

// registerDomain registers the phrasings that make the suites' stories
// readable. Each one is a thin layer over the generic steps.
func (s *scenario) registerDomain(sc *godog.ScenarioContext) {
	s.registerQuote(sc)
	s.registerAnchor(sc)
	s.registerCompose(sc)
	s.registerSelref(sc)
	s.registerMarker(sc)
}
