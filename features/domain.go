package features

// registerDomain registers the phrasings that make the suites' stories
// readable. Each one is a thin layer over the generic steps.
func (s *scenario) registerDomain(sc steps) {
	s.registerQuote(sc)
	s.registerAnchor(sc)
	s.registerCompose(sc)
	s.registerSelref(sc)
	s.registerMarker(sc)
}
