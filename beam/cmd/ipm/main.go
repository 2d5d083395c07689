// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command ipm trains the model that perceptron train trains, by iterative
// parameter mixing on Apache Beam, with package ipm: the shards are the
// files of LIBSVM rows or of lines of text that a glob matches, one shard a
// file, in the order of their names, read as the command perceptron reads
// a training file and taken through its default steps, and the model is
// written as the command writes it, which perceptron predict and
// data.LoadModel read.
//
// Usage:
//
//	ipm -shards 'data/part-*.svm' -output model.bin [flags] [Beam's flags]
//
// Its flags:
//
//	-shards glob       the shards' files, local or on a file system of Beam's (gs://, s3://)
//	-output path       the model file, written when the training has succeeded, and only then: JSON if it ends in .json or .json.gz, as the command's
//	-format name       libsvm or text; empty tells it by the first shard
//	-model name        averaged or perceptron (default averaged)
//	-epochs n          the most epochs, each a round of mixing; 0 means 1000
//	-mix how           uniform, or mistakes to weight each shard by its mistakes
//	-rate r            the learning rate; 0 means 1
//	-nobias            train through the origin
//	-idf, -normalize   the steps: the IDF weights, and rows of unit length (default true)
//	-shuffle, -seed s  visit each shard's rows in a fresh order each epoch (default true, seed 1)
//	-no-stop           stop only at an epoch without a mistake or at -epochs
//	-tol t             the rule that stops early: the least fall of the mistakes, times the rows
//	-no-change n       and the epochs in a row without it that stop training
//	-ngrams n, -bits b text: the longest n-gram, and 2^b columns (default 2 and 19)
//	-cols n            LIBSVM: the width of the rows; 0 finds it in the shards
//	-classes a,b,...   the classes; empty finds them in the shards
//	-timeout d         the most time a pipeline may take before ipm cancels its job; 0 means no limit
//	-work dir          where the models pass between epochs; empty is beside -output
//	-log_level level   Beam's logs: debug, info, warn or error (default warn)
//
// and Beam's, as --runner: prism (the default, in this process), direct,
// flink, spark, dataflow or universal, with the runner's own flags, as
// README.md says. -h lists ipm's flags, then Beam's.
//
// ipm writes a line to stderr after each epoch, with its mistakes and its
// time. A failed pipeline fails ipm with one line, Beam's logs of the
// failure left out unless -log_level is info or debug. On SIGINT or
// SIGTERM it stops the run, which cancels its job on the runner's job
// service and removes its files, and exits with 130 or 143, leaving out
// Beam's logs of the stopped run; on a second signal, or if the run has
// not stopped within a minute, it exits at once and says where the files
// of the run are. SIGKILL leaves them: ipm names those of other runs as it
// starts. It runs Go's garbage collector at GOGC=50 unless GOGC is set.
// Run by a runner as its worker, ipm removes the copy of itself that
// Beam's boot made in /tmp, and ends when its parent has ended.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	// The file systems of s3:// paths; beamx registers gs:// and local ones.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	// Beam's runners, for --runner, and the file systems of local and gs:// paths.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/beam/ipm"
	"github.com/seed5ae3614e/perceptron/data"
)

var (
	shards    = flag.String("shards", "", "the shards' files, a glob: one shard a file, in the order of the names")
	output    = flag.String("output", "", "the model file, written only when the training succeeds: in the JSON form if the name ends in .json or .json.gz, and in the binary form otherwise, gzipped if it ends in .gz, as perceptron train writes it")
	format    = flag.String("format", "", "the format of the shards: libsvm or text; empty tells it by the first shard's name, or else its first line")
	model     = flag.String("model", "averaged", "the classifier: averaged or perceptron")
	epochs    = flag.Int("epochs", 0, "the most epochs, each a round of mixing; 0 means 1000")
	mix       = flag.String("mix", "uniform", "the mixing: uniform, or mistakes to weight each shard by its mistakes in the epoch")
	rate      = flag.Float64("rate", 0, "the learning rate; 0 means 1")
	noBias    = flag.Bool("nobias", false, "train through the origin")
	idf       = flag.Bool("idf", true, "weigh each feature by its inverse document frequency over the rows of all the shards, ln((1+rows)/(1+rows where it is not 0)) + 1, as the command perceptron does")
	normalize = flag.Bool("normalize", true, "scale each row to unit length, after -idf, as the command perceptron does")
	shuffle   = flag.Bool("shuffle", true, "visit the rows of each shard in a fresh order each epoch, drawn from -seed, the shard and the epoch; -shuffle=false visits them in the order of the file, as perceptron.FitShards does")
	seed      = flag.Uint64("seed", 1, "the seed of the orders of -shuffle")
	noStop    = flag.Bool("no-stop", false, "stop only at an epoch without a mistake or at -epochs, not early by -tol and -no-change")
	tol       = flag.Float64("tol", 1e-3, "stop early once -no-change epochs in a row have not lowered the mistakes of an epoch by `TOL` times the rows below the fewest before them")
	noChange  = flag.Int("no-change", 5, "the epochs without a fall of the mistakes by -tol that stop training")
	ngrams    = flag.Int("ngrams", 2, "text: hash the word n-grams of up to `N` words into features: 1 for the words alone, 2 for the words and the pairs of adjacent words")
	bits      = flag.Int("bits", 19, "text: hash the n-grams into 2^`B` features, B from 1 to 30")
	cols      = flag.Int("cols", 0, "LIBSVM: the width of the rows; 0 finds it in the shards")
	classes   = flag.String("classes", "", "the classes, separated by commas; empty finds them in the shards")
	timeout   = flag.Duration("timeout", 0, "the most time a pipeline of the run, the scan of the shards or an epoch, may take before ipm cancels its job and fails; 0 means no limit")
	work      = flag.String("work", "", "the folder where the models pass between epochs, which the workers and this program reach; empty is beside -output")
	logLevel  = flag.String("log_level", "warn", "the level of Beam's logs: debug, info, warn or error")
)

// own are the names of the flags of ipm, which -h shows before Beam's.
var own = []string{"shards", "output", "format", "model", "epochs", "mix", "rate", "nobias", "idf", "normalize", "shuffle", "seed", "no-stop", "tol", "no-change", "ngrams", "bits", "cols", "classes", "timeout", "work", "log_level"}

// usage writes the help of -h: ipm's flags, then Beam's.
func usage() {
	out := flag.CommandLine.Output()
	ours := flag.NewFlagSet("ipm", flag.ContinueOnError)
	beams := flag.NewFlagSet("beam", flag.ContinueOnError)
	flag.VisitAll(func(f *flag.Flag) {
		set := beams
		if slices.Contains(own, f.Name) {
			set = ours
		}
		set.Var(f.Value, f.Name, f.Usage)
		set.Lookup(f.Name).DefValue = f.DefValue
	})
	fmt.Fprintf(out, "Usage: ipm -shards 'data/part-*.svm' -output model.bin [flags] [Beam's flags]\n\n")
	fmt.Fprintf(out, "ipm trains the model that perceptron train trains, by iterative parameter mixing on Apache Beam.\n\nIts flags:\n")
	ours.SetOutput(out)
	ours.PrintDefaults()
	fmt.Fprintf(out, "\nBeam's flags, of which --runner picks the runner (README.md says which each runner needs):\n")
	beams.SetOutput(out)
	beams.PrintDefaults()
}

// grace is how long ipm waits, after SIGINT or SIGTERM, for the run to
// stop and remove its files.
const grace = time.Minute

// gcPercent is the garbage collector's GOGC for ipm, unless GOGC is set:
// ipm's memory is mostly a few large arrays of numbers, which a
// collection does not scan, so that collecting when the heap has grown by
// half, not when it has doubled, costs little time and keeps the process
// nearer the memory it holds. Less returns memory to the system so often
// that it costs more in faults of pages than it saves.
const gcPercent = 50

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	flag.Usage = usage
	flag.Parse()
	beamlog.LogLevel = *logLevel
	// On a runner that starts this program as its worker, Init runs the
	// worker and does not return.
	if worker := flag.Lookup("worker"); worker != nil && worker.Value.String() == "true" {
		asWorker()
	}
	beam.Init()
	// The steps that fail as a signal stops the run, and the runner's
	// report of the failed pipeline, are Beam's logs of the stop, some KB
	// of plans, which tell the user nothing that ipm's lines do not. Prism
	// gives each job a logger of the default handler as the job starts.
	logs := &quiet{Handler: slog.Default().Handler(), held: new(held)}
	slog.SetDefault(slog.New(logs))
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	var got os.Signal
	var mu sync.Mutex
	go func() {
		s := <-signals
		logs.stopped.Store(true)
		mu.Lock()
		got = s
		mu.Unlock()
		fmt.Fprintf(os.Stderr, "ipm: %v: stopping the run, which removes its files\n", s)
		cancel()
		select {
		case <-signals:
		case <-time.After(grace):
		}
		fmt.Fprintf(os.Stderr, "ipm: stopped before the run removed its files: they are %s\n", runFiles())
		os.Exit(exitCode(s))
	}()
	err := run(ctx, logs)
	mu.Lock()
	s := got
	mu.Unlock()
	switch {
	case err == nil:
		// The run ended, and wrote the model, before the signal stopped it.
	case s != nil:
		fmt.Fprintf(os.Stderr, "ipm: %v: stopped", s)
		if strings.Contains(err.Error(), "could not remove") {
			fmt.Fprintf(os.Stderr, ": %v", err)
		}
		fmt.Fprintln(os.Stderr)
		os.Exit(exitCode(s))
	default:
		logs.drop(err)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// quiet is a handler of logs that writes nothing once stopped is set, and
// holds the records of errors, which flush writes, and drop too, but
// for a failed pipeline: a runner whose pipeline fails logs its failure,
// with the plan of the pipeline, and ipm's error says it, on one line.
type quiet struct {
	slog.Handler
	*held
}

// held is what the handlers of a quiet share: whether it has stopped, and
// the records held, with the handler of each.
type held struct {
	stopped atomic.Bool
	mu      sync.Mutex
	records []heldRecord
}

type heldRecord struct {
	h slog.Handler
	r slog.Record
}

func (h *quiet) Enabled(ctx context.Context, l slog.Level) bool {
	return !h.stopped.Load() && h.Handler.Enabled(ctx, l)
}

func (h *quiet) Handle(ctx context.Context, r slog.Record) error {
	if h.stopped.Load() {
		return nil
	}
	if r.Level >= slog.LevelError {
		h.mu.Lock()
		h.records = append(h.records, heldRecord{h.Handler, r.Clone()})
		h.mu.Unlock()
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h *quiet) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &quiet{h.Handler.WithAttrs(attrs), h.held}
}

func (h *quiet) WithGroup(name string) slog.Handler {
	return &quiet{h.Handler.WithGroup(name), h.held}
}

// flush writes the records held.
func (h *held) flush() { h.drop(nil) }

// drop writes the records held, unless err is the failure of a pipeline,
// which they report, and Beam's logs are at their default level or above.
func (h *held) drop(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !errors.As(err, new(*ipm.PipelineError)) || *logLevel == "debug" || *logLevel == "info" {
		for _, hr := range h.records {
			hr.h.Handle(context.Background(), hr.r)
		}
	}
	h.records = nil
}

// asWorker readies this process to run as a worker of Beam's, which
// runs a step of a job a time; a run of ipm is a job an epoch. Beam's boot
// program, of the Go SDK's container, that a runner whose environment is
// a process starts for each worker, as prism's is and Flink's and Spark's
// may be, copies the worker's binary to a folder of its own under /tmp
// and runs it, and leaves it: the worker removes that copy, which it does
// not read again, not to leave one a job. A worker whose job has ended
// waits to be ended, and prism ends the boot that started it but not the
// worker: it ends when its parent has.
func asWorker() {
	if exe, err := os.Executable(); err == nil && bootCopy(exe) {
		os.Remove(exe)
		os.Remove(filepath.Dir(exe))
	}
	parent := os.Getppid()
	go func() {
		for range time.Tick(time.Second) {
			if os.Getppid() != parent {
				os.Exit(0)
			}
		}
	}()
}

// bootCopy reports whether the file exe is a copy of a worker's binary
// that Beam's boot made: the file worker, in a folder of /tmp named bin
// and digits.
func bootCopy(exe string) bool {
	dir, name := filepath.Split(exe)
	base, ok := strings.CutPrefix(filepath.Base(dir), "bin")
	return name == "worker" && filepath.Dir(filepath.Clean(dir)) == "/tmp" && ok && base != "" && strings.Trim(base, "0123456789") == ""
}

// exitCode returns the status of a program that a signal stopped, as a
// shell gives it: 128 and the signal's number.
func exitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// runFiles returns the pattern of the files of a run of the flags.
func runFiles() string {
	if *work != "" {
		return strings.TrimSuffix(*work, "/") + "/ipm-*"
	}
	return *output + ".ipm-*"
}

func run(ctx context.Context, logs *quiet) error {
	c := ipm.Config{Format: *format, Epochs: *epochs, Rate: *rate, NoBias: *noBias, NoIDF: !*idf, NoNormalize: !*normalize,
		InOrder: !*shuffle, Seed: *seed, NoStop: *noStop, Tol: *tol, NoChange: *noChange,
		Hashing: &data.Hashing{NGrams: *ngrams, Bits: *bits, NoNorm: true}, Cols: *cols, Timeout: *timeout, Output: *output, Work: *work}
	switch *model {
	case "averaged":
	case "perceptron":
		c.Perceptron = true
	default:
		return fmt.Errorf("ipm: -model %q, want averaged or perceptron", *model)
	}
	switch *mix {
	case "uniform":
	case "mistakes":
		c.ByMistakes = true
	default:
		return fmt.Errorf("ipm: -mix %q, want uniform or mistakes", *mix)
	}
	if *classes != "" {
		c.Classes = strings.Split(*classes, ",")
	}
	switch {
	case *shards == "":
		return errors.New("ipm: no -shards")
	case *output == "":
		return errors.New("ipm: no -output")
	case flag.NArg() > 0:
		return fmt.Errorf("ipm: arguments %q after the flags: quote the glob of -shards", flag.Args())
	case *tol <= 0:
		return fmt.Errorf("ipm: -tol %v, want a number > 0", *tol)
	case *noChange <= 0:
		return fmt.Errorf("ipm: -no-change %d, want 1 or more", *noChange)
	case *ngrams < 1:
		return fmt.Errorf("ipm: -ngrams %d, want 1 or more", *ngrams)
	case *bits < 1 || *bits > 30:
		return fmt.Errorf("ipm: -bits %d, want 1 to 30", *bits)
	}
	files, err := ipm.Glob(ctx, *shards)
	if err != nil {
		return err
	}
	// A run that SIGKILL or a crash ended leaves its files, which ipm
	// cannot tell from those of a run that goes on, on another machine or
	// on a file system without locks: it names them.
	if left, err := ipm.Glob(ctx, runFiles()); err == nil {
		fmt.Fprintf(os.Stderr, "ipm: %s are %d files of runs that were killed or still run: remove them if no run of this -output or -work goes on\n", runFiles(), len(left))
	}
	c.Shards = files
	c.OnEpoch = func(e, mistakes int, took time.Duration) {
		logs.flush()
		fmt.Fprintf(os.Stderr, "ipm: epoch %d: %d mistakes, %v\n", e, mistakes, took.Round(time.Millisecond))
	}
	res, err := ipm.Run(ctx, c)
	if err != nil {
		return err
	}
	logs.flush()
	m := res.Model
	st := m.Classifier.(interface{ Stats() perceptron.Stats }).Stats()
	var steps []string
	if m.Hashing != nil {
		steps = append(steps, fmt.Sprintf("the n-grams of up to %d words of each line hashed", m.Hashing.NGrams))
	}
	if m.Scaler != nil {
		steps = append(steps, "each feature weighed by its inverse document frequency")
	}
	if m.Normalize {
		steps = append(steps, "each row scaled to unit length")
	}
	fmt.Printf("%s: %s of %d classes on %d columns", c.Output, *model, len(m.Classes), res.Cols)
	for _, s := range steps {
		fmt.Printf(", %s", s)
	}
	fmt.Printf("; %d shards, %d epochs, converged %t, mistakes by epoch %v\n", len(files), st.Epochs, st.Converged, st.EpochMistakes)
	return nil
}
