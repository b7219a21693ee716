package quote

import "github.com/conform-suite/conform/reference/internal/opkit"

// Ops maps each protocol op of the quote suite to its handler.
var Ops = map[string]opkit.Handler{
	"quote.format":  formatOp,
	"quote.parse":   parseOp,
	"quote.collect": collectOp,
}
