package quote

import "github.com/conform-suite/conform/reference/internal/opkit"

// Ops maps each protocol op of the quote suite to its handler.
var Ops = map[string]opkit.Handler{
	// The citation link, spec/quote-link.md; handlers in link_ops.go.
	"quote.format":  formatOp,
	"quote.parse":   parseOp,
	"quote.collect": collectOp,

	// Anchoring, spec/quote-anchor.md; handlers in anchor_ops.go.
	"quote.normalize": normalizeOp,
	"quote.select":    selectOp,
	"quote.resolve":   resolveOp,
	"quote.dom_text":  domTextOp,

	// Composer and provider pipeline, spec/quote-compose.md; handlers in
	// compose_ops.go.
	"quote.comment":      commentOp,
	"quote.expand":       promptOp(Expand),
	"quote.plaintext":    promptOp(PlainText),
	"quote.markdown":     promptOp(Markdown),
	"quote.submit_check": submitCheckOp,
	"quote.send_turn":    sendTurnOp,
	"quote.nav_encode":   navEncodeOp,
	"quote.nav_decode":   navDecodeOp,
	"quote.nav_history":  navHistoryOp,
}
