// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command stress is the reliability check a maintainer runs before a
// release: the data bombs, crafted model files and misuse of the library
// of issue 31, and the loaders, signals, kinds of error and memory of
// issue 47 (every loader on changed files, each model that loads saved
// and loaded again; SIGINT to the command started with SIGINT ignored;
// SIGKILL as it writes its model), each in a child process under a limit
// of address space (ulimit -v 3000000 unless a case says otherwise) and of
// a minute of CPU time (ulimit -t), unless a case sets its own. It runs
// the command perceptron, which it builds from this workspace, and calls
// the library in children of itself.
//
// Each case is classified: ok, if it did what is expected (success, or a
// clean error: the exit status expected and at most 2000 bytes of stderr
// that say what the case wants said); wrong, if it ended otherwise; crash,
// if it ended in a fatal error of Go's runtime, a panic or a signal;
// timeout, if it did not end within a minute of CPU time. It prints a line per case
// and a table of the counts, and exits with status 1 if any case was not
// ok.
//
//	CGO_ENABLED=0 go run ./bench/stress            # every case at full size, some minutes
//	CGO_ENABLED=0 go run ./bench/stress -quick     # smaller inputs that trip the same checks, for CI
//	CGO_ENABLED=0 go run ./bench/stress -run 'json/|lib/' -v
//	CGO_ENABLED=0 go run ./bench/stress -cmd ~/go/bin/perceptron -run '^(data|model|cmd|signal)/'
//
// It runs without cgo, as its cases of serve import net, which links C's
// runtime otherwise, whose threads take address space that the limits
// leave no room for (limit.Supported); it builds the command so too.
//
// A quick run puts the data bombs under ulimit -v 1500000 and the large
// models under 1700000 (the bare model under 1600000), in which smaller
// inputs trip the same
// checks, crafts a Voted file of a tenth of the mistakes, makes 500
// random changes to each model file in place of 20,000 (150 to a
// data.Model's file in place of 5,000, and 40 in place of 400 for
// predict -model), and kills 2 writes in place of 5; the other cases are
// the same in both.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed5ae3614e/perceptron/internal/limit"
)

// The limits of every case, as issue 31 measured them.
const (
	defaultKiB = 3000000     // ulimit -v, unless a case sets its own
	timeout    = time.Minute // of CPU time, for each case
	maxStderr  = 2000        // bytes of a clean error
)

// A test is one case: the command run with the arguments that args
// returns, after making the files they name, or, if lib is set, lib run
// in a child of this program with those arguments, if args is set.
type test struct {
	name string
	kib  func(s *suite) int // the limit of address space in KiB; nil means defaultKiB
	code int                // the exit status expected
	want string             // a regular expression that stderr must match
	args func(s *suite) ([]string, error)
	lib  func(s *suite, args []string) (note string, err error)

	// timeout, if not zero, is the CPU time the case may take, in place
	// of a minute.
	timeout time.Duration
}

// suite is what the cases share: the flags and a directory for the files
// they make.
type suite struct {
	quick bool
	seed  uint64
	dir   string           // for the files the cases make
	cmd   string           // the command perceptron
	made  map[string]error // the files made in dir, and the errors of making them
}

// The environment through which a child of this program learns its case.
const (
	envCase  = "STRESS_CASE"
	envSeed  = "STRESS_SEED"
	envQuick = "STRESS_QUICK"
)

func main() {
	if name := os.Getenv(envCase); name != "" {
		os.Exit(child(name))
	}
	os.Exit(stress())
}

// stress runs the cases that the flags choose, and returns the exit
// status: 0 if every case was ok, 1 if not, 2 if it could not run them.
func stress() int {
	quick := flag.Bool("quick", false, "run the small versions of the cases, which trip the same checks (for CI)")
	run := flag.String("run", "", "run only the cases whose names match this regular expression")
	seed := flag.Uint64("seed", 1, "the seed of the mutations of model files")
	verbose := flag.Bool("v", false, "print the standard error of every case, not only of those that fail")
	cmd := flag.String("cmd", "", "the command perceptron to test (default: built from this workspace)")
	flag.Parse()
	if !limit.Supported() {
		fmt.Fprintln(os.Stderr, "stress: needs Linux and a POSIX shell to set ulimit -v, and a build without C's runtime: CGO_ENABLED=0 go run ./bench/stress")
		return 2
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stress: -run:", err)
		return 2
	}
	dir, err := os.MkdirTemp("", "stress")
	if err != nil {
		fmt.Fprintln(os.Stderr, "stress:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	s := &suite{quick: *quick, seed: *seed, dir: dir, cmd: *cmd, made: map[string]error{}}
	if s.cmd == "" {
		s.cmd = filepath.Join(dir, "perceptron")
		build := exec.Command("go", "build", "-o", s.cmd, "github.com/seed5ae3614e/perceptron/cmd/perceptron")
		// The command imports net, which links C's runtime unless cgo is
		// off: see limit.Supported.
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "stress: building the command: %v\n%s", err, out)
			return 2
		}
	}
	if s.runAll(re, *verbose) {
		return 1
	}
	return 0
}

// The classes of an outcome, in the order of the summary's columns.
const (
	ok = iota
	wrong
	crash
	timedOut
	nClasses
)

var classNames = [nClasses]string{"ok", "wrong", "crash", "timeout"}

// runAll runs the cases that re matches, prints a line for each, the
// summary and again the cases that were not ok, and reports whether any
// was not ok.
func (s *suite) runAll(re *regexp.Regexp, verbose bool) (failed bool) {
	start := time.Now()
	counts := map[string]*[nClasses]int{}
	var groups []string
	// The end of a long log is what a CI's page shows.
	var notOK []string
	for _, t := range tests {
		if !re.MatchString(t.name) {
			continue
		}
		class, line, detail := s.run(t)
		// The files' names are shorter without their directory.
		line, detail = strings.ReplaceAll(line, s.dir+"/", ""), strings.ReplaceAll(detail, s.dir+"/", "")
		out := fmt.Sprintf("%-7s %-34s %s\n", classNames[class], t.name, line)
		if detail = strings.TrimSpace(detail); detail != "" && (verbose || class != ok) {
			if !verbose {
				// Enough of a goroutine dump to see where it was.
				detail = clip(detail, 1000)
			}
			out += fmt.Sprintf("        %s\n", strings.ReplaceAll(detail, "\n", "\n        "))
		}
		fmt.Print(out)
		if class != ok {
			notOK = append(notOK, out)
		}
		g, _, _ := strings.Cut(t.name, "/")
		if counts[g] == nil {
			counts[g] = new([nClasses]int)
			groups = append(groups, g)
		}
		counts[g][class]++
		failed = failed || class != ok
	}
	mode := "full"
	if s.quick {
		mode = "quick"
	}
	fmt.Printf("\n%s run, seed %d, in %v\n", mode, s.seed, time.Since(start).Round(100*time.Millisecond))
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "group\ttries\tok\twrong\tcrashes\ttimeouts\t")
	var total [nClasses]int
	row := func(g string, c *[nClasses]int) {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t\n", g, c[ok]+c[wrong]+c[crash]+c[timedOut], c[ok], c[wrong], c[crash], c[timedOut])
	}
	for _, g := range groups {
		row(g, counts[g])
		for k, n := range counts[g] {
			total[k] += n
		}
	}
	row("total", &total)
	w.Flush()
	if len(notOK) > 0 {
		fmt.Printf("\nnot ok:\n%s", strings.Join(notOK, ""))
	}
	return failed
}

// run runs t and returns its class, the line that says how it ended, and
// the detail of its standard error.
func (s *suite) run(t test) (class int, line, detail string) {
	kib := defaultKiB
	if t.kib != nil {
		kib = t.kib(s)
	}
	var args []string
	if t.args != nil {
		var err error
		if args, err = t.args(s); err != nil {
			return wrong, "making its files: " + err.Error(), ""
		}
	}
	name, env := s.cmd, []string{"GOMEMLIMIT="}
	if t.lib != nil {
		exe, err := os.Executable()
		if err != nil {
			return wrong, "cannot run a child: " + err.Error(), ""
		}
		name = exe
		env = append(env, envCase+"="+t.name, envSeed+"="+strconv.FormatUint(s.seed, 10), envQuick+"="+strconv.FormatBool(s.quick))
	}
	r, err := limit.Run(cmp.Or(t.timeout, timeout), kib, nil, env, name, args...)
	if err != nil && r == nil {
		return wrong, err.Error(), ""
	}
	stderr := string(r.Stderr)
	line = fmt.Sprintf("exit %d  %6.2fs  %s", r.Code, r.Elapsed.Seconds(), firstLine(cmp.Or(stderr, string(r.Stdout)), 110))
	switch {
	case err != nil:
		return timedOut, fmt.Sprintf("killed %6.2fs  %s", r.Elapsed.Seconds(), err), stderr
	case r.Fatal() || r.Code < 0:
		return crash, line, stderr
	case r.Code != t.code:
		return wrong, line, fmt.Sprintf("want exit %d; stderr: %s", t.code, stderr)
	case len(r.Stderr) > maxStderr:
		return wrong, line, fmt.Sprintf("%d bytes of stderr, want at most %d: %s", len(r.Stderr), maxStderr, stderr)
	case !regexp.MustCompile(t.want).MatchString(stderr):
		return wrong, line, fmt.Sprintf("stderr does not match %q: %s", t.want, stderr)
	}
	return ok, line, stderr
}

// firstLine returns the first line of s that is not empty, at most n
// bytes of it.
func firstLine(s string, n int) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			return clip(l, n)
		}
	}
	return ""
}

// clip returns the first n bytes of s.
func clip(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "") + " …"
	}
	return s
}

// child runs the library case name, as a child of the runner: it prints
// the case's note to stdout and exits with status 0, or prints its error
// to stderr and exits with status 1.
func child(name string) int {
	seed, _ := strconv.ParseUint(os.Getenv(envSeed), 10, 64)
	s := &suite{quick: os.Getenv(envQuick) == "true", seed: seed}
	for _, t := range tests {
		if t.name != name || t.lib == nil {
			continue
		}
		note, err := t.lib(s, os.Args[1:])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(note)
		return 0
	}
	fmt.Fprintf(os.Stderr, "stress: no library case %q\n", name)
	return 3
}

// file returns the path of the file name in s.dir, which write writes
// the first time a case asks for it, or the error of writing it.
func (s *suite) file(name string, write func(path string) error) (string, error) {
	path := filepath.Join(s.dir, name)
	err, done := s.made[name]
	if !done {
		err = write(path)
		s.made[name] = err
	}
	return path, err
}

// text returns a maker of a file of the text b.
func text(b string) func(string) error {
	return func(path string) error { return os.WriteFile(path, []byte(b), 0o644) }
}

// sized returns full in a full run and small in a quick one.
func (s *suite) sized(full, small int) int {
	if s.quick {
		return small
	}
	return full
}
