// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command modelfile measures the model files of the command perceptron on
// the Debian text that bench/text builds, with the command's defaults:
// the time of train's save, of data.LoadModel and of perceptron predict of
// one line, load included, and the size of the file, in the binary form
// of what prediction reads, which train writes by default, beside that of
// train -resumable and the JSON form, and beside the JSON form of the command before
// (-before, a commit of this repository, built from git archive) and
// fastText's model; and the peak memory, time and test accuracy of train
// and eval with the defaults, beside those of the command before. See
// bench/README.md for the figures.
//
//	go run ./bench/text -build      # writes /tmp/debian-text, once
//	go run ./bench/modelfile        # from the repository's root
//
// Every process runs on one core, GOMAXPROCS=1 and fastText's -thread 1,
// and is timed from outside: wall time, processor time (user and
// system) and peak resident memory, from its rusage. LoadModel and Save
// are timed in a child of this command, in the same way, each the call
// alone. predict of one line runs -runs times, of which the median.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/seed5ae3614e/perceptron/bench/timed"
	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	dir := flag.String("dir", "/tmp/debian-text", "the directory of the data set")
	before := flag.String("before", "0142a54", "the commit of the command before, built from git archive; empty leaves it out")
	runs := flag.Int("runs", 5, "the runs of each fast prediction of one line")
	skipFastText := flag.Bool("skip-fasttext", false, "leave fastText out")
	child := flag.String("child", "", "load or save: time data.LoadModel or Model.Save of the files given (internal)")
	flag.Parse()
	log.SetFlags(0)
	if *child != "" {
		if err := runChild(*child, flag.Args()); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := bench(*dir, *before, *runs, *skipFastText); err != nil {
		log.Fatal(err)
	}
}

// run is a run of a command, measured.
type run = timed.Result

// measure runs the command name with args, on one core, and measures it;
// its Stdout holds what it wrote to stdout and then to stderr.
func measure(name string, args ...string) (run, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	r, err := timed.Run(cmd)
	r.Stdout = append(r.Stdout, r.Stderr...)
	return r, err
}

// median runs the command n times and returns the run of the median wall
// time.
func median(n int, name string, args ...string) (run, error) {
	var rs []run
	for range n {
		r, err := measure(name, args...)
		if err != nil {
			return r, err
		}
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b run) int { return int(a.Wall - b.Wall) })
	return rs[len(rs)/2], nil
}

// callTimes is what a child reports of a call: its wall and processor time.
type callTimes struct {
	Wall, CPU time.Duration
}

// runChild times data.LoadModel of args[0] ("load"), or Model.Save of the
// model of args[0] to args[1] ("save"), and writes the times as JSON.
func runChild(what string, args []string) error {
	var t callTimes
	switch what {
	case "load":
		w, c := time.Now(), cpuTime()
		if _, err := data.LoadModel(args[0]); err != nil {
			return err
		}
		t = callTimes{time.Since(w), cpuTime() - c}
	case "save":
		m, err := data.LoadModel(args[0])
		if err != nil {
			return err
		}
		w, c := time.Now(), cpuTime()
		if err := m.Save(args[1]); err != nil {
			return err
		}
		t = callTimes{time.Since(w), cpuTime() - c}
	default:
		return fmt.Errorf("-child %s: want load or save", what)
	}
	return json.NewEncoder(os.Stdout).Encode(t)
}

// inChild runs this command as a child of what on args and returns what
// it reports.
func inChild(what string, args ...string) (callTimes, error) {
	exe, err := os.Executable()
	if err != nil {
		return callTimes{}, err
	}
	r, err := measure(exe, append([]string{"-child", what}, args...)...)
	if err != nil {
		return callTimes{}, err
	}
	var t callTimes
	if err := json.Unmarshal(bytes.TrimSpace(firstLine(r.Stdout)), &t); err != nil {
		return t, fmt.Errorf("the child's output %q: %v", r.Stdout, err)
	}
	return t, nil
}

func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line
}

// cpuTime returns the processor time of the process so far, user and
// system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// testAccuracy returns the test accuracy of the averaged perceptron in the
// table that eval prints.
func testAccuracy(out []byte) (float64, error) {
	m := regexp.MustCompile(`(?m)^averaged .* ([0-9.]+)%\s+\S+$`).FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no accuracy of averaged in %q", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// bench builds the commands, runs every measure and prints the tables.
func bench(dir, before string, runs int, skipFastText bool) error {
	tmp, err := os.MkdirTemp("", "bench-modelfile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	load()
	trainFile, testFile := filepath.Join(dir, "train.txt"), filepath.Join(dir, "test.txt")
	one, err := oneLine(testFile, filepath.Join(tmp, "one.txt"))
	if err != nil {
		return err
	}
	type command struct {
		name, exe, form, model string
		flags                  []string // of train
	}
	ours := filepath.Join(tmp, "perceptron")
	if _, err := measure("go", "build", "-o", ours, "./cmd/perceptron"); err != nil {
		return err
	}
	cmds := []command{
		{"this commit", ours, "binary", filepath.Join(tmp, "m.model"), nil},
		{"this commit", ours, "binary, gzipped", filepath.Join(tmp, "m.model.gz"), nil},
		{"this commit", ours, "binary, -resumable", filepath.Join(tmp, "r.model"), []string{"-resumable"}},
		{"this commit", ours, "JSON, gzipped", filepath.Join(tmp, "m.json.gz"), nil},
	}
	if before != "" {
		exe, err := buildBefore(before, tmp)
		if err != nil {
			return err
		}
		cmds = append(cmds, command{before, exe, "JSON, gzipped", filepath.Join(tmp, "before.json.gz"), nil})
	}

	fmt.Println("| command | model file | train wall s | train CPU s | train peak RSS MiB | file MB | save wall s | save CPU s | LoadModel wall s | LoadModel CPU s | predict 1 line wall s | predict CPU s | predict peak RSS MiB |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, c := range cmds {
		tr, err := measure(c.exe, append(append([]string{"train", "-q"}, c.flags...), "-o", c.model, trainFile)...)
		if err != nil {
			return err
		}
		fi, err := os.Stat(c.model)
		if err != nil {
			return err
		}
		save, err := inChild("save", c.model, filepath.Join(tmp, "saved-"+filepath.Base(c.model)))
		if err != nil {
			return err
		}
		ld, err := inChild("load", c.model)
		if err != nil {
			return err
		}
		n := runs
		if strings.HasPrefix(c.form, "JSON") {
			n = 1 // seconds each
		}
		pr, err := median(n, c.exe, "predict", "-q", "-model", c.model, one)
		if err != nil {
			return err
		}
		fmt.Printf("| %s | %s | %.2f | %.2f | %d | %.1f | %.2f | %.2f | %.3f | %.3f | %.3f | %.3f | %d |\n", c.name, c.form,
			tr.Wall.Seconds(), tr.CPU.Seconds(), tr.MaxRSS>>20, float64(fi.Size())/1e6, save.Wall.Seconds(), save.CPU.Seconds(),
			ld.Wall.Seconds(), ld.CPU.Seconds(), pr.Wall.Seconds(), pr.CPU.Seconds(), pr.MaxRSS>>20)
	}
	fmt.Println()
	fmt.Println("| command | hash bits | train wall s | train peak RSS MiB | eval wall s | eval CPU s | eval peak RSS MiB | test accuracy |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, c := range cmds {
		if c.form != "binary" && c.name == "this commit" {
			continue
		}
		bits := []string{""}
		if c.name == "this commit" {
			bits = []string{"", "18", "20"}
		}
		for _, b := range bits {
			flags := []string{}
			if b != "" {
				flags = []string{"-bits", b}
			}
			tr, err := measure(c.exe, append(append([]string{"train"}, flags...), "-o", filepath.Join(tmp, "bits.model"), trainFile)...)
			if err != nil {
				return err
			}
			ev, err := measure(c.exe, append(append([]string{"eval", "-classifier", "averaged"}, flags...), trainFile, testFile)...)
			if err != nil {
				return err
			}
			acc, err := testAccuracy(ev.Stdout)
			if err != nil {
				return err
			}
			if b == "" {
				b = "default"
			}
			fmt.Printf("| %s | %s | %.2f | %d | %.2f | %.2f | %d | %.2f%% |\n", c.name, b, tr.Wall.Seconds(), tr.MaxRSS>>20, ev.Wall.Seconds(), ev.CPU.Seconds(), ev.MaxRSS>>20, acc)
		}
	}
	if !skipFastText {
		fmt.Println()
		if err := fastText(trainFile, testFile, one, tmp, runs); err != nil {
			return err
		}
	}
	load()
	return nil
}

// oneLine writes the text of the first line of the file at path, without
// its labels, to out.
func oneLine(path, out string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var words []string
	for _, w := range strings.Fields(string(firstLine(b))) {
		if !strings.HasPrefix(w, "__label__") {
			words = append(words, w)
		}
	}
	return out, os.WriteFile(out, []byte(strings.Join(words, " ")+"\n"), 0o644)
}

// buildBefore builds the command of the commit rev of this repository,
// from git archive, in tmp.
func buildBefore(rev, tmp string) (string, error) {
	src := filepath.Join(tmp, "before")
	if err := os.Mkdir(src, 0o755); err != nil {
		return "", err
	}
	if _, err := measure("sh", "-c", `git archive "$1" | tar -x -C "$2"`, "sh", rev, src); err != nil {
		return "", err
	}
	exe := filepath.Join(tmp, "perceptron-before")
	build := exec.Command("go", "build", "-o", exe, "./cmd/perceptron")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the command of %s: %v: %s", rev, err, out)
	}
	return exe, nil
}

// fastText trains fastText with its defaults and with the bigrams of its
// tutorial, one thread, and measures its model and its prediction of the
// line one, load included, and its test accuracy.
func fastText(trainFile, testFile, one, tmp string, runs int) error {
	fmt.Println("| fastText | train wall s | train CPU s | train peak RSS MiB | model.bin MB | predict 1 line wall s | predict CPU s | predict peak RSS MiB | test accuracy |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range []struct {
		name string
		args []string
	}{{"defaults", nil}, {"-wordNgrams 2 -epoch 25 -lr 0.5", []string{"-wordNgrams", "2", "-epoch", "25", "-lr", "0.5"}}} {
		model := filepath.Join(tmp, "ft")
		tr, err := measure("fasttext", append([]string{"supervised", "-input", trainFile, "-output", model, "-thread", "1"}, s.args...)...)
		if err != nil {
			return err
		}
		fi, err := os.Stat(model + ".bin")
		if err != nil {
			return err
		}
		pr, err := median(runs, "fasttext", "predict", model+".bin", one)
		if err != nil {
			return err
		}
		te, err := measure("fasttext", "test", model+".bin", testFile)
		if err != nil {
			return err
		}
		m := regexp.MustCompile(`P@1\s+([0-9.]+)`).FindSubmatch(te.Stdout)
		if m == nil {
			return fmt.Errorf("fasttext test: %q", te.Stdout)
		}
		acc, _ := strconv.ParseFloat(string(m[1]), 64)
		fmt.Printf("| %s | %.1f | %.1f | %d | %.1f | %.3f | %.3f | %d | %.2f%% |\n", s.name, tr.Wall.Seconds(), tr.CPU.Seconds(), tr.MaxRSS>>20,
			float64(fi.Size())/1e6, pr.Wall.Seconds(), pr.CPU.Seconds(), pr.MaxRSS>>20, 100*acc)
	}
	return nil
}

// load prints the machine's load averages, from /proc/loadavg, and the
// time, to the standard error.
func load() {
	b, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(os.Stderr, "%s load average %s\n", time.Now().UTC().Format(time.DateTime+" UTC"), strings.Join(strings.Fields(string(b))[:3], " "))
}
