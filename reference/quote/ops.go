package quote

import "github.com/conform-suite/conform/reference/internal/opkit"

// Ops maps each protocol op of the quote suite to its handler.
var Ops = map[string]opkit.Handler{
	"quote.format":  formatOp,
	"quote.parse":   parseOp,
	"quote.collect": collectOp,

	// spec/quote-compose.md
	"quote.comment":      commentOp,
	"quote.expand":       promptOp(Expand),
	"quote.plaintext":    promptOp(PlainText),
	"quote.markdown":     promptOp(Markdown),
	"quote.submit_check": submitCheckOp,
	"quote.send_turn":    sendTurnOp,
	"quote.nav_encode":   navEncodeOp,
	"quote.nav_decode":   navDecodeOp,
}
