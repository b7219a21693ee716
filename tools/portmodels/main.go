// Command portmodels measures the suite by the mistakes ports make: it runs
// every port model (tools/portmodels/<language>/, each one a plausible port
// wrong in one platform built-in or one structural slip) through conform run
// on its ops, conform features and conform fuzz from the generators alone,
// and writes which of them fail each model into docs/port-models.md.
//
// Usage: go run ./tools/portmodels [-list] [-count N] [-run REGEXP] [-parallel N] [-o FILE]
//
// make port-models runs it. Each model's program must list it (--list); a
// runtime that is not on PATH leaves its models out, and the doc says so.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
)

func main() {
	listOnly := flag.Bool("list", false, "list the models and exit")
	count := flag.Int("count", 3000, "inputs conform fuzz sends each model (--no-corpus --seed 1)")
	run := flag.String("run", "", "only the models whose name matches this regular expression")
	out := flag.String("o", "docs/port-models.md", "the doc to write")
	workers := flag.Int("parallel", 2, "models judged at once")
	flag.Parse()
	if err := referenceEnv(); err != nil {
		fail(err)
	}
	models, missing, err := all()
	if err != nil {
		fail(err)
	}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fail(fmt.Errorf("-run: %v", err))
		}
		var kept []*model
		for _, m := range models {
			if re.MatchString(m.Model) {
				kept = append(kept, m)
			}
		}
		models = kept
	}
	if *listOnly {
		for _, m := range models {
			fmt.Printf("%-8s %-60s %s\n", m.lang.name, m.Model, strings.Join(m.Ops, ","))
		}
		return
	}
	dir, err := os.MkdirTemp("", "portmodels-fuzz-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	rows := make([]measured, len(models))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range max(1, *workers) {
		wg.Go(func() {
			for i := range next {
				m := models[i]
				r := measured{m: m, verdicts: map[check]verdict{}}
				for _, c := range []check{checkRun, checkFeatures, checkFuzz} {
					sub, err := os.MkdirTemp(dir, "")
					if err != nil {
						fail(err)
					}
					r.verdicts[c] = judge(m, c, *count, sub)
				}
				rows[i] = r
				mu.Lock()
				done++
				fmt.Fprintf(os.Stderr, "portmodels: %d/%d %s: run %d, features %d, fuzz %d\n", done, len(models), m.Model,
					r.verdicts[checkRun].code, r.verdicts[checkFeatures].code, r.verdicts[checkFuzz].code)
				mu.Unlock()
			}
		})
	}
	for i := range models {
		next <- i
	}
	close(next)
	wg.Wait()
	doc := render(rows, missing, *count, commit())
	if err := os.WriteFile(*out, []byte(doc), 0o644); err != nil {
		fail(err)
	}
}

// commit names the commit measured, with "+changes" when the tree differs
// from it.
func commit() string {
	head, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "an unknown commit"
	}
	c := strings.TrimSpace(string(head))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+changes"
	}
	return c
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "portmodels:", err)
	os.Exit(2)
}
