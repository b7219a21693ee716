package runner

import "encoding/json"

// Request is one protocol v1 request: {"id", "op", "input"}.
type Request struct {
	ID    json.RawMessage `json:"id"`
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`
}

// Response is one protocol v1 answer: exactly one of Output and Error is set.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *ErrorBody      `json:"error,omitempty"`
}

// ErrorBody is a failure of the implementation itself. Kind is one of
// "unsupported", "bad_request" and "internal".
type ErrorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Hello is the output of the hello handshake.
type Hello struct {
	Protocol int               `json:"protocol"`
	Name     string            `json:"name"`
	Version  string            `json:"version"`
	Language string            `json:"language"`
	Ops      []string          `json:"ops"`
	Choices  map[string]string `json:"choices,omitempty"`
}
