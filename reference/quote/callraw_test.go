package quote

import (
	"encoding/json"

	"github.com/conform-suite/conform/reference/internal/opkit"
)

// callRaw calls the handler h on an input given as bytes, decoding it as a
// transport does.
func callRaw(h opkit.Handler, input json.RawMessage) (any, error) {
	v, err := opkit.Parse(input)
	if err != nil {
		return nil, err
	}
	return h(v)
}
