package marker

import "github.com/conform-suite/conform/reference/internal/opkit"

// Ops maps each protocol op of the marker suite to its handler.
var Ops = map[string]opkit.Handler{}
