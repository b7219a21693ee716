package main

import (
	"strings"
	"testing"
)

// TestParseBench reads go test's text output: each benchmark's figures from
// its run with the smallest ns/op, without the GOMAXPROCS suffix, in the
// order the benchmarks first ran.
func TestParseBench(t *testing.T) {
	text := `goos: linux
BenchmarkInProcess-2    	       2	 675474590 ns/op	      5229 vectors/s	195640832 B/op	  387035 allocs/op
BenchmarkServeStdio/small-2         	  188952	      6048 ns/op	  27.45 MB/s	      1911 op-ns/req	         2.165 protocol/op	    2537 B/op	      34 allocs/op
BenchmarkInProcess-2    	       3	 505901686 ns/op	      6955 vectors/s	195095205 B/op	  386375 allocs/op
BenchmarkServeStdio/small-2         	  135871	     11168 ns/op	  14.86 MB/s	      1911 op-ns/req	         0.844 protocol/op	    2537 B/op	      34 allocs/op
PASS
`
	got := parseBench(text)
	in, serve := got["InProcess"], got["ServeStdio/small"]
	if len(got) != 2 || in == nil || serve == nil {
		t.Fatalf("parsed %v", got)
	}
	if in.runs != 2 || in.best["ns/op"] != 505901686 || in.best["vectors/s"] != 6955 || in.best["allocs/op"] != 386375 {
		t.Errorf("InProcess = %+v", in)
	}
	if serve.best["MB/s"] != 27.45 || serve.best["protocol/op"] != 2.165 || in.order != 0 || serve.order != 1 {
		t.Errorf("ServeStdio/small = %+v", serve)
	}
	if strings.Join(serve.units, " ") != "ns/op MB/s op-ns/req protocol/op B/op allocs/op" {
		t.Errorf("units %q", serve.units)
	}
}

// TestTargetsComputed: a target is met or not by its figure, and a target
// whose benchmark did not run is not measured.
func TestTargetsComputed(t *testing.T) {
	r := map[string]*bench{
		"./runner InProcess":          {best: map[string]float64{"vectors/s": 7999}},
		"./runner ServeStdio/small":   {best: map[string]float64{"protocol/op": 0.9}},
		"./runner ServeStdio/max-cjk": {best: map[string]float64{"protocol/op": 1.1}},
	}
	ts := targets(r, nil)
	if !ts[0].known || ts[0].met || !ts[1].met || ts[2].met || ts[3].known || ts[4].known {
		t.Errorf("targets %+v", ts)
	}
}
