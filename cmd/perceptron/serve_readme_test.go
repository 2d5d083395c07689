// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The curl lines of the README's section on serving run as written,
// against a server of a model of topics as the README's, in the README's
// order, and answer what the README shows, where "…" stands for any text.
func TestServeREADME(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("no curl")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Serving\n")
	if !ok {
		t.Fatal("README.md has no section ## Serving")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	type example struct {
		cmd  string
		want []string
	}
	var examples []example
	in := false
	for line := range strings.Lines(section) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "```"):
			in = !in
		case in && strings.HasPrefix(line, "curl "):
			examples = append(examples, example{cmd: line})
		case in && len(examples) > 0 && !strings.HasPrefix(line, "perceptron "):
			examples[len(examples)-1].want = append(examples[len(examples)-1].want, line)
		}
	}
	if len(examples) < 8 {
		t.Fatalf("%d curl lines in the README's section on serving", len(examples))
	}

	dir := t.TempDir()
	texts, labels := topicLines(rand.New(rand.NewPCG(8, 8)), 600)
	ft, _ := fastText(texts, labels)
	model := filepath.Join(dir, "topics.json")
	mustRun(t, "train", "-resumable", "-bits", "14", "-o", model, writeFile(t, dir, "headlines.txt", ft))
	ts := startServer(t, "-model", model, "-learn", "-save", filepath.Join(dir, "topics-learned.json"))
	host := strings.TrimPrefix(ts.url, "http://")
	for _, e := range examples {
		c := exec.Command(bash, "-c", strings.ReplaceAll(e.cmd, "localhost:8080", host))
		c.Dir = dir
		c.Env = append(os.Environ(), "PATH="+filepath.Dir(curl)+":"+os.Getenv("PATH"))
		out, err := c.Output()
		if err != nil {
			t.Errorf("%s: %v", e.cmd, err)
			continue
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(e.want) == 0 {
			got = nil
		}
		match := len(got) == len(e.want)
		for i := range e.want {
			if match {
				re := "^" + strings.ReplaceAll(regexp.QuoteMeta(e.want[i]), "…", ".*?") + "$"
				match = regexp.MustCompile(re).MatchString(got[i])
			}
		}
		if !match {
			t.Errorf("%s\nanswered\n%s\nthe README shows\n%s", e.cmd, out, strings.Join(e.want, "\n"))
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "topics-now.json")); err != nil || fi.Size() == 0 {
		t.Errorf("the README's GET /model wrote no model: %v", err)
	}
}
