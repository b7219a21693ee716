package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/vectors"
)

// corpus returns the embedded vectors, or, while the corpus is empty, a small
// one built on what every build of the reference answers: hello, and an
// unknown op (unsupported).
func corpus(t testing.TB) []*vectors.Vector {
	t.Helper()
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	if vs := c.Vectors(); len(vs) > 0 {
		return vs
	}
	hello, err := json.Marshal(reference.Hello())
	if err != nil {
		t.Fatal(err)
	}
	data := fmt.Sprintf(`{"op":"hello","description":"Handshake.","vectors":[
	  {"id":"hello/protocol-1","description":"hello with protocol 1","requirements":["PROTO-HELLO-001"],"input":{"protocol":1},"expect":{"output":%s}},
	  {"id":"hello/unknown-member-ignored","description":"hello with an extra member","requirements":["PROTO-HELLO-001"],"input":{"protocol":1,"x":[1,{"y":"😀"}]},"expect":{"output":%s}}]}`, hello, hello)
	c, err = vectors.Load(fstest.MapFS{"hello.json": {Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	return c.Vectors()
}

// transports returns every transport, each serving the reference.
func transports(t testing.TB) map[string]func() Implementation {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(InProcess{}))
	t.Cleanup(srv.Close)
	serveEnv := append(os.Environ(), serveEnv+"=stdio")
	return map[string]func() Implementation{
		"in-process": func() Implementation { return InProcess{} },
		"stdio": func() Implementation {
			s := NewStdio(os.Args[0])
			s.Env, s.Grease = serveEnv, true
			return s
		},
		"http": func() Implementation {
			h := NewHTTP(srv.URL)
			h.Grease = true
			return h
		},
		"spawn": func() Implementation { return &Spawn{Command: []string{os.Args[0]}, Env: serveEnv} },
	}
}

// TestEveryTransportPassesTheCorpus runs the whole corpus against the
// reference through every transport: what the reference answers in process
// has to survive serialization, pipelining and batching unchanged.
func TestEveryTransportPassesTheCorpus(t *testing.T) {
	vs := corpus(t)
	for name, open := range transports(t) {
		t.Run(name, func(t *testing.T) {
			if name == "spawn" && len(vs) > 200 {
				vs = vs[:200] // a process per vector: a sample is enough
			}
			impl := open()
			defer impl.Close()
			ctx := context.Background()
			hello, err := Connect(ctx, impl)
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Impl: impl, Hello: hello, Timeout: 20 * time.Second, Batch: 16}
			for _, res := range r.Run(ctx, vs) {
				if res.Outcome != Pass {
					t.Errorf("%s: %s %s %v", res.Vector.ID, res.Outcome, res.Detail, res.Diffs)
				}
			}
		})
	}
}

// TestUnknownOpUnsupported checks every transport answers an op nobody
// offers with error kind unsupported, which the runner reports as such.
func TestUnknownOpUnsupported(t *testing.T) {
	v := &vectors.Vector{ID: "nosuch.op/x", Op: "nosuch.op", Input: json.RawMessage(`{}`), Expect: vectors.Expect{Output: json.RawMessage(`{}`)}}
	for name, open := range transports(t) {
		impl := open()
		res := (&Runner{Impl: impl, Timeout: 10 * time.Second}).RunOne(context.Background(), 7, v)
		impl.Close()
		if res.Outcome != Unsupported {
			t.Errorf("%s: RunOne(nosuch.op) outcome = %s (%s), want unsupported", name, res.Outcome, res.Detail)
		}
	}
}
