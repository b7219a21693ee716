package runner

import (
	"io"
	"strings"
)

func httpBody(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }
