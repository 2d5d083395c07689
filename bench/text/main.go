// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command text measures the averaged perceptron on hashed word n-grams,
// read by package data's Text, against fastText's supervised mode
// (Debian's fasttext 0.9.2), on a text set of Debian's package
// descriptions that it builds from the apt indexes: which section of the
// archive a package is in, from its English description. See README.md
// for the data, the commands and the figures.
//
//	apt-get update -o Acquire::Languages=en && apt-get install -y fasttext
//	go run ./bench/text -build            # writes /tmp/debian-text
//	go run ./bench/text -grid             # our settings, on held-out training lines
//	go run ./bench/text                   # fastText beside the chosen settings, on the test lines
//
// Both run on one core: fastText with -thread 1, this library in a child
// process with GOMAXPROCS=1. Each run is a process, timed from outside by
// its wall time and its processor time, user and system; our child
// reports the times of training, reading the training file included, and
// of testing apart, and fastText's are those of its supervised and
// predict commands, which read their files and, for supervised, write its
// model.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	dir := flag.String("dir", "/tmp/debian-text", "the directory of the data set")
	doBuild := flag.Bool("build", false, "build the data set into -dir, and stop")
	grid := flag.Bool("grid", false, "try settings of the perceptron on held-out training lines, and stop")
	valid := flag.Bool("valid", false, "with -child, test on held-out training lines (internal)")
	skipFastText := flag.Bool("skip-fasttext", false, "leave fastText out")
	seeds := flag.Int("seeds", 3, "the seeds of the shuffles of each of our settings")
	flag.Parse()
	log.SetFlags(0)
	switch {
	case *childFlag != "":
		if err := child(*childFlag, *dir, *valid); err != nil {
			log.Fatal(err)
		}
	case *doBuild:
		if err := build(*dir); err != nil {
			log.Fatal(err)
		}
	case *grid:
		load()
		fmt.Println("| setting | held-out accuracy | epochs | train CPU s |")
		fmt.Println("|---|---:|---:|---:|")
		for _, s := range gridSettings() {
			r, _, err := runOurs(*dir, s, true)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("| %s | %.2f%% | %d | %.2f |\n", s, 100*r.Accuracy, r.Epochs, r.TrainCPU.Seconds())
		}
		load()
	default:
		if err := compare(*dir, *skipFastText, *seeds); err != nil {
			log.Fatal(err)
		}
	}
}

// fastTextSettings are the settings of fastText that the comparison
// runs: its defaults, and the settings of its tutorial for bigrams, on
// the text as it is and as the tutorial preprocesses it.
var fastTextSettings = []fastTextSetting{
	{},
	{args: []string{"-wordNgrams", "2", "-epoch", "25", "-lr", "0.5"}},
	{prep: true},
	{args: []string{"-wordNgrams", "2", "-epoch", "25", "-lr", "0.5"}, prep: true},
}

// ourSettings are the settings of the averaged perceptron that the
// comparison runs, chosen on held-out training lines by -grid.
var ourSettings = []setting{
	{Hashing: data.Hashing{NGrams: 2}, Epochs: 10},
	{Hashing: data.Hashing{NGrams: 2, Bits: 18}, Epochs: 10},
}

// gridSettings are the settings that -grid tries.
func gridSettings() []setting {
	var out []setting
	add := func(h data.Hashing, epochs int, stop *perceptron.Stop) {
		out = append(out, setting{Hashing: h, Epochs: epochs, Stop: stop, Seed: 1})
	}
	for _, v := range []string{"count", "binary", "tf"} {
		for _, noNorm := range []bool{false, true} {
			add(data.Hashing{NGrams: 2, Values: v, NoNorm: noNorm}, 10, nil)
		}
	}
	add(data.Hashing{NGrams: 2, Signed: true}, 10, nil)
	for _, b := range []int{16, 18, 22} {
		add(data.Hashing{NGrams: 2, Bits: b}, 10, nil)
	}
	add(data.Hashing{NGrams: 1}, 10, nil)
	add(data.Hashing{NGrams: 3}, 10, nil)
	for _, e := range []int{3, 5, 20, 40} {
		add(data.Hashing{NGrams: 2}, e, nil)
	}
	add(data.Hashing{NGrams: 2}, 100, &perceptron.Stop{})
	add(data.Hashing{NGrams: 2}, 100, &perceptron.Stop{Validation: 0.1})
	return out
}

// runOurs runs the setting in a child of this command, on held-out
// training lines if valid, and returns what the child reports and how it
// ran.
func runOurs(dir string, s setting, valid bool) (childResult, run, error) {
	exe, err := os.Executable()
	if err != nil {
		return childResult{}, run{}, err
	}
	args := append(s.flags(), "-dir", dir)
	if valid {
		args = append(args, "-valid")
	}
	ran, err := measure(exe, args...)
	if err != nil {
		return childResult{}, ran, err
	}
	var r childResult
	if err := json.Unmarshal(ran.Stdout, &r); err != nil {
		return r, ran, fmt.Errorf("the child's output %q: %v", ran.Stdout, err)
	}
	return r, ran, nil
}

// compare runs fastText's settings and ours, and prints a table.
func compare(dir string, skipFastText bool, seeds int) error {
	tmp, err := os.MkdirTemp("", "bench-text-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	load()
	fmt.Println("| system | setting | test accuracy | train wall s | train CPU s | test wall s | test CPU s | peak RSS MiB |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	bestAcc, bestCPU := 0.0, time.Duration(0)
	if !skipFastText {
		for _, s := range fastTextSettings {
			train, test, acc, err := fastText(dir, tmp, s)
			if err != nil {
				return err
			}
			fmt.Printf("| fastText | %s | %.2f%% | %.1f | %.1f | %.2f | %.2f | %d |\n", s, 100*acc, train.Wall.Seconds(), train.CPU.Seconds(), test.Wall.Seconds(), test.CPU.Seconds(), train.MaxRSS>>20)
			if acc > bestAcc {
				bestAcc, bestCPU = acc, train.CPU
			}
		}
	}
	for _, s := range ourSettings {
		for seed := range uint64(seeds) {
			s.Seed = seed + 1
			r, ran, err := runOurs(dir, s, false)
			if err != nil {
				return err
			}
			fmt.Printf("| Averaged | %s, seed %d | %.2f%% | %.1f | %.1f | %.2f | %.2f | %d |\n", s, s.Seed, 100*r.Accuracy, r.TrainWall.Seconds(), r.TrainCPU.Seconds(), r.TestWall.Seconds(), r.TestCPU.Seconds(), ran.MaxRSS>>20)
			if bestCPU > 0 {
				fmt.Fprintf(os.Stderr, "seed %d: %+.2f points on fastText's best, in %.3f of its training CPU time\n", s.Seed, 100*(r.Accuracy-bestAcc), r.TrainCPU.Seconds()/bestCPU.Seconds())
			}
		}
	}
	load()
	return nil
}

// load prints the machine's load averages, from /proc/loadavg, and the
// time, to the standard error.
func load() {
	b, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(os.Stderr, "%s load average %s\n", time.Now().UTC().Format(time.DateTime+" UTC"), strings.Join(strings.Fields(string(b))[:3], " "))
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
