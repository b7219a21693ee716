// Command benchdoc writes docs/performance.md from measurements: it runs the
// chosen Go benchmarks (go test -bench, -count times each), times the built
// conform binary answering quote.parse over `serve --stdio` side by side
// with the figures recorded for a real parser when the targets were set, and writes every
// figure it measured, with the targets computed from them. Nothing in the
// document is copied by hand: rerun `make bench-doc` to refresh it.
//
// Usage (from the module root; `make bench-doc` does this):
//
//	go run ./tools/benchdoc [-count 3] [-out docs/performance.md]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	count := flag.Int("count", 3, "runs of every benchmark (the best is reported)")
	out := flag.String("out", "docs/performance.md", "the document to write")
	flag.Parse()
	if err := run(*count, *out); err != nil {
		fmt.Fprintln(os.Stderr, "benchdoc:", err)
		os.Exit(1)
	}
}

func run(count int, out string) error {
	m := machine{startLoad: loadAvg(), commit: commit(), goVersion: goVersion(), cpu: cpuModel(), cores: runtime.NumCPU()}
	results := map[string]*bench{}
	for _, s := range sections {
		fmt.Fprintf(os.Stderr, "benchdoc: %s\n", s.command(count))
		text, err := exec.Command("go", s.args(count)...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %v\n%s", s.command(count), err, text)
		}
		bs := parseBench(string(text))
		if len(bs) == 0 {
			return fmt.Errorf("%s: no benchmark ran\n%s", s.command(count), text)
		}
		for name, b := range bs {
			results[s.pkg+" "+name] = b
		}
	}
	fmt.Fprintln(os.Stderr, "benchdoc: side by side through the built binary")
	sbs, err := sideBySide()
	if err != nil {
		return fmt.Errorf("side by side: %v", err)
	}
	m.endLoad = loadAvg()
	doc := render(m, count, results, sbs)
	return os.WriteFile(out, []byte(doc), 0o644)
}

// machine is the header: where and when the figures were measured.
type machine struct {
	commit, goVersion, cpu string
	cores                  int
	startLoad, endLoad     string
}

func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown (not a git checkout)"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown (" + runtime.GOOS + "/" + runtime.GOARCH + ")"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown (" + runtime.GOARCH + ")"
}

// loadAvg returns the 1, 5 and 15 minute load averages.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}

// bench is one benchmark's figures: those of its best run, the one with the
// smallest time per op (every figure of a row comes from the same run).
type bench struct {
	runs  int
	order int // the position of its first line in the output
	best  map[string]float64
	units []string // in the order go test prints them
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+(\d+)\s+(.*)$`)

// parseBench reads go test -bench text output.
func parseBench(text string) map[string]*bench {
	res := map[string]*bench{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		mm := benchLine.FindStringSubmatch(sc.Text())
		if mm == nil {
			continue
		}
		name := strings.TrimPrefix(mm[1], "Benchmark")
		b := res[name]
		if b == nil {
			b = &bench{best: map[string]float64{}, order: len(res)}
			res[name] = b
		}
		b.runs++
		run := map[string]float64{}
		var units []string
		f := strings.Fields(mm[4])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			run[f[i+1]] = v
			units = append(units, f[i+1])
		}
		if ns, ok := run["ns/op"]; b.runs == 1 || ok && ns < b.best["ns/op"] {
			b.best, b.units = run, units
		}
	}
	return res
}

// sideBySideResult is the wall clock of the built binary on each workload.
type sideBySideResult struct {
	name     string
	requests int
	best     time.Duration
	all      []time.Duration
	theirs   float64 // the real parser's seconds, as recorded
	then     float64 // conform's seconds when the target was set
	units    int     // href length in UTF-16 units
}
