package cli

import (
	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/schemaset"
)

// checkAnswer checks an answer line as doctor does: it must decode
// faithfully (one value, UTF-8, no member name written twice, nothing after
// it), which the schema validator, reading through encoding/json, cannot
// see, and it must be a protocol response.
func checkAnswer(set *schemaset.Set, line []byte) error {
	if _, err := jsonv.Parse(line); err != nil {
		return err
	}
	return set.Validate("protocol.schema.json", "/$defs/response", line)
}
