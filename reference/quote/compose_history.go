package quote

// Loading earlier history to reach a citation's source,
// spec/quote-compose.md "Loading history for navigation"
// (QUOTE-COMPOSE-060 to QUOTE-COMPOSE-064).

// MaxHistoryPages is the most pages of earlier history that navigation
// loads to reach a source.
const MaxHistoryPages = 20

// Why navigation stopped loading history.
const (
	HistoryFound          = "found"
	HistoryExhausted      = "exhausted"
	HistoryPageLimit      = "page_limit"
	HistoryRepeatedCursor = "repeated_cursor"
)

// HistoryLoad is the outcome of loading history: how many pages were
// loaded, why loading stopped, and whether a warning is due (whenever it
// stopped without the source).
type HistoryLoad struct {
	Pages   int    `json:"pages"`
	Stop    string `json:"stop"`
	Warning bool   `json:"warning"`
}

// NavHistory loads earlier history page by page. cursors[i] is the cursor
// with which page i+1 is requested; the history has len(cursors) pages.
// sourcePage is the page holding the source row: 0 when the row is already
// mounted, -1 when no page holds it. Before each page it stops when the
// source is mounted, when the history has no further page, when
// MaxHistoryPages are loaded, or when the page's cursor was used before, in
// that order.
func NavHistory(cursors []string, sourcePage int) HistoryLoad {
	seen := make(map[string]bool, len(cursors))
	stop := func(pages int, why string) HistoryLoad {
		return HistoryLoad{Pages: pages, Stop: why, Warning: why != HistoryFound}
	}
	for pages := 0; ; pages++ {
		switch {
		case sourcePage >= 0 && pages >= sourcePage:
			return stop(pages, HistoryFound)
		case pages == len(cursors):
			return stop(pages, HistoryExhausted)
		case pages == MaxHistoryPages:
			return stop(pages, HistoryPageLimit)
		case seen[cursors[pages]]:
			return stop(pages, HistoryRepeatedCursor)
		}
		seen[cursors[pages]] = true
	}
}
