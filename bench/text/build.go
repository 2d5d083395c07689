// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The apt indexes of Debian 12 (bookworm) main, as `apt-get update` with
// `-o Acquire::Languages=en` leaves them.
const (
	aptLists        = "/var/lib/apt/lists"
	packagesIndex   = "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages"
	translationsIdx = "deb.debian.org_debian_dists_bookworm_main_i18n_Translation-en"
)

// minSection is the least number of packages of a section kept.
const minSection = 300

// build writes into dir the Debian sections as text: train.txt and
// test.txt in fastText's format, a line a package, "__label__SECTION" and
// its English description, short and long, on one line; and classes.txt,
// each section kept and its packages. The packages are those of the
// Packages index of bookworm main (amd64 and all) whose description the
// Translation-en index has, by name and Description-md5, in the sections
// of at least 300 of them. A package is in the test set if the FNV-1a hash
// of its name (32 bits) is 0 modulo 5; the training lines are in a random
// order of a fixed seed, which fastText, reading them in order, needs.
func build(dir string) error {
	pkgs, err := readIndex(packagesIndex)
	if err != nil {
		return err
	}
	trans, err := readIndex(translationsIdx)
	if err != nil {
		return err
	}
	descs := make(map[[2]string]string, len(trans))
	for _, t := range trans {
		descs[[2]string{t["Package"], t["Description-md5"]}] = t["Description-en"]
	}
	type pkg struct{ name, section, text string }
	var all []pkg
	seen := map[string]bool{}
	count := map[string]int{}
	for _, p := range pkgs {
		name := p["Package"]
		d, ok := descs[[2]string{name, p["Description-md5"]}]
		if !ok || seen[name] || p["Section"] == "" {
			continue
		}
		seen[name] = true
		all = append(all, pkg{name, p["Section"], oneLine(d)})
		count[p["Section"]]++
	}
	var train, test []string
	for _, p := range all {
		if count[p.section] < minSection {
			continue
		}
		line := "__label__" + p.section + " " + p.text + "\n"
		h := fnv.New32a()
		h.Write([]byte(p.name))
		if h.Sum32()%5 == 0 {
			test = append(test, line)
		} else {
			train = append(train, line)
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
	var sections []string
	for s, n := range count {
		if n >= minSection {
			sections = append(sections, s)
		}
	}
	slices.Sort(sections)
	var classes strings.Builder
	for _, s := range sections {
		fmt.Fprintf(&classes, "%s %d\n", s, count[s])
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, text := range map[string]string{
		"train.txt":   strings.Join(train, ""),
		"test.txt":    strings.Join(test, ""),
		"classes.txt": classes.String(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%d packages of %d sections: %d training lines, %d test lines, in %s\n",
		len(train)+len(test), len(sections), len(train), len(test), dir)
	return nil
}

// oneLine returns a description, its short line and its long one, as one
// line of text: the lines of a single dot, which part its paragraphs, are
// left out, and every run of white space is one space.
func oneLine(d string) string {
	var words []string
	for line := range strings.Lines(d) {
		if strings.TrimSpace(line) == "." {
			continue
		}
		words = append(words, strings.Fields(line)...)
	}
	return strings.Join(words, " ")
}

// readIndex returns the records of an apt index under aptLists, whatever
// its compression, which apt's helper undoes: each record a map of its
// fields, the lines after the first of a field joined to it by ends of
// lines.
func readIndex(name string) ([]map[string]string, error) {
	matches, err := filepath.Glob(filepath.Join(aptLists, name+"*"))
	if err != nil || len(matches) == 0 {
		return nil, fmt.Errorf("no %s under %s: run apt-get update -o Acquire::Languages=en", name, aptLists)
	}
	out, err := exec.Command("/usr/lib/apt/apt-helper", "cat-file", matches[0]).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", matches[0], err)
	}
	var recs []map[string]string
	rec := map[string]string{}
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if len(rec) > 0 {
				recs = append(recs, rec)
			}
			rec, last = map[string]string{}, ""
		case line[0] == ' ' || line[0] == '\t':
			if last != "" {
				rec[last] += "\n" + line
			}
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("%s: %q is no field", matches[0], line)
			}
			last = k
			rec[k] = strings.TrimSpace(v)
		}
	}
	if len(rec) > 0 {
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return recs, nil
}
