package quote

import "github.com/conform-suite/conform/reference/internal/opkit"

// Ops maps each protocol op of the quote suite to its handler.
var Ops = map[string]opkit.Handler{}

// Anchoring ops, spec/quote-anchor.md; the handlers are in anchor_ops.go.
func init() {
	Ops["quote.normalize"] = normalizeOp
	Ops["quote.select"] = selectOp
	Ops["quote.resolve"] = resolveOp
}
