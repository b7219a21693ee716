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
	// canon is v written compactly by jsonv.Append (outputs only): an
	// answer with exactly these bytes decodes to v, so it matches without
	// being decoded. The reference's answers mostly are these bytes.
	canon []byte
}

// get returns data decoded, as an input (protocol.InputOptions) or as an
// output (jsonv.Parse). Its v is nil when data is empty or does not decode:
// a vector's input is then sent as bytes alone, and the implementation
// answers as it does for such a request.
func (d *decodedJSON) get(data json.RawMessage, input bool) *decodedEntry {
	opts := jsonv.Options{}
	if input {
		opts = protocol.InputOptions
	}
	if len(data) == 0 { // no identity to key it by; refused at once
		v, err := opts.Parse(data)
		return &decodedEntry{v: v, err: err}
	}
	k := decodedKey{first: &data[0], n: len(data), input: input}
	if e, ok := d.m.Load(k); ok {
		return e.(*decodedEntry)
	}
	v, err := opts.Parse(data)
	e := &decodedEntry{v: v, err: err}
	if v != nil && !input {
		e.canon = jsonv.Append(nil, v)
	}
	got, _ := d.m.LoadOrStore(k, e)
	return got.(*decodedEntry)
}
