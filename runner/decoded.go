package runner

import (
	"encoding/json"
	"sync"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// decodedJSON keeps the vectors' JSON decoded once per Runner: each input
// (handed to an implementation that reads decoded inputs, as the in-process
// reference does) and each expected output (compared with every answer). An
// entry is keyed by the identity of the bytes, which never change once a
// vector is loaded, so a lookup costs no hashing of the text.
type decodedJSON struct{ m sync.Map }

type decodedKey struct {
	first *byte
	n     int
	input bool // decoded as an input (protocol.InputOptions), else strictly
}

type decodedEntry struct {
	v   *jsonv.Value
	err error
}

// get returns data decoded, as an input (protocol.InputOptions) or as an
// output (jsonv.Parse).
func (d *decodedJSON) get(data json.RawMessage, input bool) (*jsonv.Value, error) {
	opts := jsonv.Options{}
	if input {
		opts = protocol.InputOptions
	}
	if len(data) == 0 {
		return opts.Parse(data) // no identity to key it by; refused at once
	}
	k := decodedKey{first: &data[0], n: len(data), input: input}
	if e, ok := d.m.Load(k); ok {
		e := e.(*decodedEntry)
		return e.v, e.err
	}
	v, err := opts.Parse(data)
	e, _ := d.m.LoadOrStore(k, &decodedEntry{v: v, err: err})
	return e.(*decodedEntry).v, e.(*decodedEntry).err
}

// input returns a vector's input decoded as a transport decodes a request's
// input, or nil when it is empty or does not decode (the implementation
// then reads the bytes and answers as it does for such a request).
func (d *decodedJSON) input(data json.RawMessage) *jsonv.Value {
	if len(data) == 0 {
		return nil
	}
	v, err := d.get(data, true)
	if err != nil {
		return nil
	}
	return v
}
