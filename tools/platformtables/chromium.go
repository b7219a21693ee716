package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/conform-suite/conform/spec"
)

var outPre = regexp.MustCompile(`(?s)<pre id="out">(.*?)</pre>`)

// runChromium loads scripts/platform/chromium.html in headless Chromium and gives the element
// roles of a port that takes a browser's default display for them: block when the display is
// block (or, in the second row, anything but inline), excluded when it is none.
func runChromium(bin string, in inputs) ([]*raw, error) {
	page, err := os.ReadFile("scripts/platform/chromium.html")
	if err != nil {
		return nil, err
	}
	names, _ := json.Marshal(in.Elements)
	tmp, err := os.MkdirTemp("", "platformtables")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "probe.html")
	if err := os.WriteFile(file, bytes.Replace(page, []byte("const names = ELEMENTS;"), append(append([]byte("const names = "), names...), ';'), 1), 0o644); err != nil {
		return nil, err
	}
	version, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v", bin, err)
	}
	dom, err := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+filepath.Join(tmp, "profile"), "--dump-dom", "file://"+file).Output()
	if err != nil {
		return nil, fmt.Errorf("%s --dump-dom: %v", bin, err)
	}
	m := outPre.FindSubmatch(dom)
	if m == nil {
		return nil, fmt.Errorf("chromium: the page wrote no result")
	}
	var res struct {
		UserAgent string
		Display   map[string]string
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &res); err != nil {
		return nil, fmt.Errorf("chromium: %v", err)
	}
	v := strings.Fields(string(version))
	if len(v) < 2 {
		return nil, fmt.Errorf("chromium: no version in %q", version)
	}
	note := "getComputedStyle(el).display of each element created in a div of a document in standards mode"
	block := newRaw("chromium:display:block", "chromium", "getComputedStyle(el).display == \"block\"", "Chromium "+v[1], "measured", spec.KindElements, note)
	other := newRaw("chromium:display!=inline", "chromium", "getComputedStyle(el).display != \"inline\"", "Chromium "+v[1], "measured", spec.KindElements, note)
	for _, n := range in.Elements {
		d, ok := res.Display[n]
		if !ok {
			return nil, fmt.Errorf("chromium: no display for %s", n)
		}
		role := func(blockish bool) string {
			switch {
			case d == "none":
				return "excluded"
			case blockish:
				return "block"
			}
			return "inline"
		}
		block.entries = append(block.entries, []string{n, role(d == "block"), d})
		other.entries = append(other.entries, []string{n, role(d != "inline" && d != "contents"), d})
	}
	return []*raw{block, other}, nil
}
